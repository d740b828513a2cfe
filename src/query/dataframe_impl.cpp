#include "query/dataframe_impl.hpp"

#include <functional>

#include "taco/errors.hpp"

namespace taco::query {
namespace {

constexpr uint64_t kFree = UINT64_MAX;
constexpr uint64_t kRowMask = 0xFFFFFFFFu;

// The first (or last) column called `name`, when it has type `type`.
std::optional<size_t> find_column(const metadata::ResultTable& t, std::string_view name,
                                  TypeId type, bool last) {
    std::optional<size_t> found;
    for (size_t i = 0; i < t.columns(); ++i) {
        if (t.schema()[i].name != name) continue;
        found = i;
        if (!last) break;
    }
    if (found && t.schema()[*found].type.id() != type) return std::nullopt;
    return found;
}

}  // namespace

DataFrameImpl::DataFrameImpl(std::shared_ptr<DatasetContext> context,
                             std::shared_ptr<const metadata::ResultTable> rows, size_t lvl)
    : ctx(std::move(context)), table(std::move(rows)), level(lvl) {
    id_col = find_column(*table, "id", TypeId::String, false);
    type_col = find_column(*table, "type", TypeId::String, false);
    // The reader appends the path it computed last (see navigation.cpp).
    vsi_col = find_column(*table, "internal:gdal_vsi", TypeId::String, true);
    if (table->rows() >= kRowMask) {
        throw QueryError("a DataFrame holds at most " + std::to_string(kRowMask - 1) + " rows");
    }
}

void DataFrameImpl::build_index() const {
    const size_t n = table->rows();
    size_t capacity = 16;
    while (capacity < 2 * n) capacity *= 2;
    index_.assign(capacity, kFree);
    const size_t mask = capacity - 1;
    table->for_each_string(*id_col, [&](size_t row, std::string_view id) {
        const uint64_t h = std::hash<std::string_view>{}(id);
        const uint64_t tag = h >> 32 << 32;
        for (size_t slot = h & mask;; slot = (slot + 1) & mask) {
            const uint64_t entry = index_[slot];
            if (entry == kFree) {
                index_[slot] = tag | row;
                return;
            }
            // The first row with an id wins, as in the reference's linear search.
            if ((entry & ~kRowMask) == tag && table->get_string(entry & kRowMask, *id_col) == id)
                return;
        }
    });
}

std::optional<size_t> DataFrameImpl::find_id(std::string_view id) const {
    if (!id_col) return std::nullopt;
    std::call_once(index_once_, [this] {
        build_index();
        index_built_.store(true, std::memory_order_release);
    });
    const uint64_t h = std::hash<std::string_view>{}(id);
    const uint64_t tag = h >> 32 << 32;
    const size_t mask = index_.size() - 1;
    for (size_t slot = h & mask; index_[slot] != kFree; slot = (slot + 1) & mask) {
        const uint64_t entry = index_[slot];
        if ((entry & ~kRowMask) == tag && table->get_string(entry & kRowMask, *id_col) == id) {
            return static_cast<size_t>(entry & kRowMask);
        }
    }
    return std::nullopt;
}

}  // namespace taco::query
