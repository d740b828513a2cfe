#include "rowpath.hpp"

#include "model/shorten.hpp"
#include "output.hpp"
#include "taco/errors.hpp"

namespace taco::cli {
namespace {

std::string sql_literal(const std::string& s) {
    std::string out = "'";
    for (char c : s) {
        if (c == '\'') out += '\'';
        out += c;
    }
    return out + "'";
}

}  // namespace

RowLocation follow_rowpath(const Dataset& dataset, const std::string& rowpath) {
    const std::vector<std::string> ids = split_rowpath(rowpath);
    if (ids.empty()) throw NavigationError("empty ROWPATH; expected sample ids joined by '/'");
    // Level 0 through SQL, so a million-row level is not materialized to find one sample.
    RowLocation at{dataset.sql("SELECT * FROM data WHERE id = " + sql_literal(ids[0])).data(), 0};
    if (at.frame.rows() == 0) {
        throw NavigationError("no sample '" + shorten(ids[0]) + "' at level 0 of " +
                              dataset.path().string());
    }
    std::string walked = ids[0];
    for (size_t k = 1; k < ids.size(); ++k) {
        ReadResult next = at.frame.read(static_cast<int64_t>(at.row));
        auto* children = std::get_if<DataFrame>(&next);
        if (!children) {
            throw NavigationError("'" + shorten(walked) + "' is a FILE; it has no child '" +
                                  shorten(ids[k]) + "'");
        }
        at.frame = std::move(*children);
        try {
            at.row = at.frame.position_of(ids[k]);
        } catch (const NavigationError&) {
            throw NavigationError("'" + shorten(walked) + "' has no child '" + shorten(ids[k]) +
                                  "'");
        }
        walked += "/" + ids[k];
    }
    return at;
}

}  // namespace taco::cli
