// The tree an export writes: the kept level-0 rows in view order and, level by level, every row
// below them (parent-major, as the reference orders level tables), each with where its bytes are.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "query/dataset_context.hpp"

namespace taco::convert {

struct TreeRow {
    int64_t old_id = 0;  // internal:current_id in the source level table
    int64_t parent = 0;  // row of the parent in the previous output level (own row at level 0)
    std::string id;
    bool folder = false;
    bool padding = false;     // `__TACOPAD__N`: a zero-byte FILE
    std::string path;         // relative to DATA/: "a", "a/b" for FILEs, "a/", "a/b/" for FOLDERs
    std::string vsi;          // internal:gdal_vsi of its bytes (FILE) or __meta__ (FOLDER)
    int64_t child_begin = 0;  // FOLDER: first child's row in the next level
    int64_t child_count = 0;
    // Where the writer put it in an output ZIP: the data (FILE) or __meta__ (FOLDER).
    int64_t offset = 0;
    int64_t size = 0;
};

struct ExportTree {
    std::vector<std::vector<TreeRow>> levels;
    uint64_t files = 0;  // FILE rows at every level (padding included)
};

/// How the level-0 rows are chosen.
struct RootSelection {
    /// The view's SQL (a level-0 view of `ctx`); ignored when `all_rows`.
    std::string view_sql;
    /// Every row of level0_table, padding included (zip2folder/folder2zip).
    bool all_rows = false;
};

/// Builds the tree of a dataset with `depth` level tables. Reads the structure columns of every
/// level table through `ctx.db` and each kept FOLDER's `__meta__` (the authoritative place of its
/// children's bytes, FORMAT.md §4.3). `name` is what messages call the dataset. QueryError when no
/// row is kept; SchemaError for two kept level-0 rows with one id; FormatError for a level table
/// without internal:current_id / parent_id, a child its folder's __meta__ does not list, or an id
/// that would make a path leave the output (io::unsafe_relative_path).
ExportTree build_tree(query::DatasetContext& ctx, const RootSelection& roots, size_t depth,
                      const std::string& name);

}  // namespace taco::convert
