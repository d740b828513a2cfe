#include "query/meta_readahead.hpp"

#include <algorithm>
#include <unordered_set>

namespace taco::query {
namespace {

std::string id_of(const FolderRows& rows, size_t row) {
    if (rows.id_col && !rows.table->is_null(row, *rows.id_col))
        return std::string(rows.table->get_string(row, *rows.id_col));
    return "at position " + std::to_string(row);
}

}  // namespace

size_t MetaReadahead::take_window(size_t level) {
    std::lock_guard lock(mutex_);
    size_t& next = window_[level];
    const size_t now = std::max<size_t>(next, 1);
    next = std::min(now * 2, kMaxWindow);
    return now;
}

void MetaReadahead::remember(FolderRows rows) {
    if (rows.table->rows() > kMaxSourceRows) return;
    std::lock_guard lock(mutex_);
    auto& list = sources_[rows.level];
    list.push_back({std::move(rows), 0});
    if (list.size() > kMaxSources) list.pop_front();
}

std::vector<FolderRef> MetaReadahead::candidates(
    const FolderRows& from, size_t row, size_t n,
    const std::function<bool(std::string_view vsi)>& wanted) {
    std::vector<FolderRef> out;
    std::unordered_set<std::string_view> taken;
    // Adds row r of `rows` if it is a FOLDER not read yet; false once `n` are found.
    auto offer = [&](const FolderRows& rows, size_t r) {
        const metadata::ResultTable& t = *rows.table;
        if (t.is_null(r, rows.type_col) || t.is_null(r, rows.vsi_col)) return true;
        if (t.get_string(r, rows.type_col) != "FOLDER") return true;
        const std::string_view vsi = t.get_string(r, rows.vsi_col);
        if (taken.count(vsi) || !wanted(vsi)) return true;
        taken.insert(vsi);
        out.push_back({std::string(vsi), id_of(rows, r)});
        return out.size() < n;
    };
    if (n == 0) return out;
    // The requesting table: its later rows first (a loop over a frame goes forward), then the
    // earlier ones. Bounded, so that a million-row frame is not scanned for a window of 64.
    const size_t rows = from.table->rows();
    const size_t look = std::min(rows, n * 16);
    for (size_t k = 1; k < look; ++k)
        if (!offer(from, (row + k) % rows)) return out;
    std::lock_guard lock(mutex_);
    auto it = sources_.find(from.level);
    if (it == sources_.end()) return out;
    auto& list = it->second;
    while (!list.empty()) {
        Source& s = list.front();
        const size_t total = s.rows.table->rows();
        while (s.next < total) {
            if (!offer(s.rows, s.next++)) return out;
        }
        list.pop_front();  // every FOLDER of it was offered
    }
    return out;
}

}  // namespace taco::query
