// taco::DataFrame: typed cells over the shared result chunks, and `read` navigation.
#include "taco/dataframe.hpp"

#include <algorithm>

#include "model/shorten.hpp"
#include "query/cascade.hpp"
#include "query/dataframe_impl.hpp"
#include "query/navigation.hpp"
#include "query/vsi_path.hpp"
#include "taco/errors.hpp"

namespace taco {

DataFrame::DataFrame()
    : impl_(std::make_shared<query::DataFrameImpl>(nullptr, metadata::ResultTable::empty(), 0)) {}

DataFrame::DataFrame(std::shared_ptr<const query::DataFrameImpl> impl) : impl_(std::move(impl)) {}

size_t DataFrame::rows() const {
    return impl_->table->rows();
}
size_t DataFrame::columns() const {
    return impl_->table->columns();
}
const std::vector<ColumnType>& DataFrame::schema() const {
    return impl_->table->schema();
}
size_t DataFrame::level() const {
    return impl_->level;
}

ContainerFormat DataFrame::format() const {
    return impl_->ctx ? impl_->ctx->source.format : ContainerFormat::Auto;
}

std::vector<std::string> DataFrame::column_names() const {
    std::vector<std::string> out;
    for (const auto& c : schema()) out.push_back(c.name);
    return out;
}

std::optional<size_t> DataFrame::column_index(std::string_view name) const {
    const auto& s = schema();
    for (size_t i = 0; i < s.size(); ++i)
        if (s[i].name == name) return i;
    return std::nullopt;
}

bool DataFrame::is_null(size_t row, size_t col) const {
    return impl_->table->is_null(row, col);
}
Value DataFrame::value(size_t row, size_t col) const {
    return impl_->table->get_value(row, col);
}

Value DataFrame::value(size_t row, std::string_view column) const {
    const auto col = column_index(column);
    if (!col) throw std::out_of_range("no column '" + std::string(column) + "'");
    return value(row, *col);
}

bool DataFrame::get_bool(size_t row, size_t col) const {
    return impl_->table->get_bool(row, col);
}
int64_t DataFrame::get_int(size_t row, size_t col) const {
    return impl_->table->get_int(row, col);
}
double DataFrame::get_double(size_t row, size_t col) const {
    return impl_->table->get_double(row, col);
}
std::string_view DataFrame::get_string(size_t row, size_t col) const {
    return impl_->table->get_string(row, col);
}

namespace {

const query::DataFrameImpl& navigable(const query::DataFrameImpl& d) {
    if (!d.ctx) throw NavigationError("cannot navigate an empty DataFrame");
    if (!d.type_col || !d.vsi_col) {
        throw NavigationError(
            "cannot navigate: the rows have no string columns 'type' and 'internal:gdal_vsi' (keep "
            "id, type and internal:gdal_vsi in the SELECT list of your query)");
    }
    return d;
}

std::string sample_name(const query::DataFrameImpl& d, size_t row) {
    if (d.id_col && !d.table->is_null(row, *d.id_col)) {
        return "'" + shorten(d.table->get_string(row, *d.id_col)) + "'";
    }
    return "at position " + std::to_string(row);
}

// The gdal_vsi of a FILE row; NavigationError for FOLDERs and broken rows.
std::string_view file_vsi(const query::DataFrameImpl& d, size_t row) {
    navigable(d);
    const std::string_view type = d.table->get_string(row, *d.type_col);
    if (type != "FILE") {
        throw NavigationError(
            "sample " + sample_name(d, row) + " is a " +
            (type.empty() ? std::string("row without type") : std::string(type)) +
            ", not a FILE: it has no bytes of its own (read() lists its children)");
    }
    if (d.table->is_null(row, *d.vsi_col)) {
        throw NavigationError("sample " + sample_name(d, row) + " has no internal:gdal_vsi");
    }
    return d.table->get_string(row, *d.vsi_col);
}

std::string id_text(const query::DataFrameImpl& d, size_t row) {
    return d.id_col ? std::string(d.table->get_string(row, *d.id_col)) : std::to_string(row);
}

query::SampleName name_of(const query::DataFrameImpl& d, size_t row) {
    return [&d, row] { return sample_name(d, row); };
}

// Below a cascade filter: the children of FOLDER `row` that survived it, found by its
// internal:current_id among the survivors of the next level.
DataFrame read_survivors(const query::DataFrameImpl& d, size_t row) {
    std::optional<size_t> id_col;
    for (size_t i = 0; i < d.table->columns(); ++i) {
        if (d.table->schema()[i].name == "internal:current_id") id_col = i;
    }
    if (!id_col || d.table->is_null(row, *id_col)) {
        throw NavigationError("sample " + sample_name(d, row) +
                              ": a cascade filter lists only the matching children, which are "
                              "found by internal:current_id; keep it in the SELECT of sql()");
    }
    auto children = d.cascade->children(*d.ctx, d.level + 1, d.table->get_int(row, *id_col));
    auto impl = std::make_shared<query::DataFrameImpl>(d.ctx, std::move(children), d.level + 1);
    impl->cascade = d.cascade;
    impl->life = d.life;
    return DataFrame(std::move(impl));
}

}  // namespace

size_t DataFrame::checked_position(int64_t position) const {
    if (impl_->life) impl_->life->check("reading a sample of a DataFrame taken from it");
    const size_t n = rows();
    if (position < 0 || static_cast<uint64_t>(position) >= n) {
        if (n == 0) {
            throw NavigationError("Position " + std::to_string(position) +
                                  " out of range: the DataFrame is empty");
        }
        throw NavigationError(
            "Position " + std::to_string(position) + " out of range [0, " + std::to_string(n - 1) +
            "]" + (position < 0 ? " (negative positions do not count from the end)" : ""));
    }
    return static_cast<size_t>(position);
}

size_t DataFrame::position_of(std::string_view id) const {
    if (impl_->life) impl_->life->check("reading a sample of a DataFrame taken from it");
    if (!impl_->id_col) {
        throw NavigationError("cannot search by id: the rows have no string column 'id'");
    }
    const auto row = impl_->find_id(id);
    if (!row) {
        throw NavigationError("ID '" + shorten(id) + "' not found among the " +
                              std::to_string(rows()) + " samples at level " +
                              std::to_string(level()));
    }
    return *row;
}

ReadResult DataFrame::read(int64_t position) const {
    static const std::function<void()> nothing = [] {};  // made once, not per read
    return read(position, nothing);
}

ReadResult DataFrame::read(int64_t position, const std::function<void()>& before_blocking) const {
    const size_t row = checked_position(position);
    const query::DataFrameImpl& d = navigable(*impl_);
    const std::string_view type = d.table->get_string(row, *d.type_col);
    if (type == "FILE") {
        const std::string_view vsi = file_vsi(d, row);
        // A ZIP member's path is checked as text; a FOLDER dataset's file may stat the disk.
        if (!query::is_vsi_subfile(vsi)) before_blocking();
        query::check_inside_dataset(*d.ctx, vsi, false, name_of(d, row));
        return std::string(vsi);
    }
    if (type != "FOLDER") {
        throw NavigationError("sample " + sample_name(d, row) + " has type '" + std::string(type) +
                              "', expected FILE or FOLDER");
    }
    if (d.table->is_null(row, *d.vsi_col)) {
        throw NavigationError("sample " + sample_name(d, row) + " has no internal:gdal_vsi");
    }
    before_blocking();
    if (d.cascade && !d.cascade->level_sql(d.level + 1).empty()) return read_survivors(d, row);
    const query::FolderRows from{d.table, d.level, *d.type_col, *d.vsi_col, d.id_col};
    auto children = query::read_folder_children(*d.ctx, d.table->get_string(row, *d.vsi_col),
                                                id_text(d, row), &from, row);
    auto impl = std::make_shared<query::DataFrameImpl>(d.ctx, std::move(children), d.level + 1);
    impl->cascade = d.cascade;
    impl->life = d.life;
    return DataFrame(std::move(impl));
}

std::optional<std::string_view> DataFrame::file_path_in_memory(int64_t position) const {
    const size_t row = checked_position(position);
    const query::DataFrameImpl& d = navigable(*impl_);
    if (d.table->get_string(row, *d.type_col) != "FILE") return std::nullopt;
    const std::string_view vsi = file_vsi(d, row);
    // Inside an archive by construction (read() skips check_inside_dataset for these too).
    if (!query::is_vsi_subfile(vsi)) return std::nullopt;
    return vsi;
}

std::optional<std::string_view> DataFrame::file_path_in_memory(std::string_view id) const {
    if (!impl_->index_ready()) return std::nullopt;
    return file_path_in_memory(static_cast<int64_t>(position_of(id)));
}

ReadResult DataFrame::read(std::string_view id) const {
    return read(static_cast<int64_t>(position_of(id)));
}

ReadResult DataFrame::read(std::string_view id,
                           const std::function<void()>& before_blocking) const {
    if (!impl_->index_ready()) before_blocking();  // the first lookup builds the index: O(rows)
    return read(static_cast<int64_t>(position_of(id)), before_blocking);
}

query::FileRange DataFrame::byte_range(int64_t position) const {
    const size_t row = checked_position(position);
    return query::locate_file(*impl_->ctx, file_vsi(*impl_, row), name_of(*impl_, row));
}

std::string DataFrame::read_bytes(int64_t position) const {
    const query::FileRange r = byte_range(position);
    return r.source->read_string(r.offset, static_cast<size_t>(r.size), "sample bytes");
}

std::string DataFrame::read_bytes(std::string_view id) const {
    return read_bytes(static_cast<int64_t>(position_of(id)));
}

uint64_t DataFrame::byte_size(int64_t position) const {
    const size_t row = checked_position(position);
    return query::file_size(*impl_->ctx, file_vsi(*impl_, row), name_of(*impl_, row));
}

uint64_t DataFrame::byte_size(std::string_view id) const {
    return byte_size(static_cast<int64_t>(position_of(id)));
}

uint64_t DataFrame::stream_bytes(int64_t position,
                                 const std::function<void(std::string_view)>& sink,
                                 size_t piece) const {
    const size_t row = checked_position(position);
    const query::FileRange r =
        query::locate_file(*impl_->ctx, file_vsi(*impl_, row), name_of(*impl_, row));
    const std::string what = "sample " + sample_name(*impl_, row);
    std::string buffer(static_cast<size_t>(std::min<uint64_t>(std::max<size_t>(piece, 1), r.size)),
                       '\0');
    uint64_t done = 0;
    while (done < r.size) {
        const size_t n = static_cast<size_t>(std::min<uint64_t>(buffer.size(), r.size - done));
        r.source->read_at(r.offset + done, buffer.data(), n, what);
        sink(std::string_view(buffer.data(), n));
        done += n;
    }
    return done;
}

}  // namespace taco

// The single-pointer layout of DataFrame lets ReadResult hold it by value cheaply.
static_assert(sizeof(taco::DataFrame) == sizeof(std::shared_ptr<int>));
