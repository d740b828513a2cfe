// The consolidated level tables of a dataset, before any bytes are written: which sample is row r
// of level d, its parent row, its relative path and where its children start (FORMAT.md §4.2).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "taco/collection.hpp"

namespace taco::metadata {

struct LevelRow {
    const Sample* sample;
    int64_t parent;             // row of the parent in the previous level (own row at level 0)
    int64_t child_begin;        // FOLDER: first child's row in the next level; -1 for FILEs
    std::string relative_path;  // level >= 1: "parent/id", FOLDERs end with "/"; empty at level 0
};

struct LevelTable {
    std::vector<ColumnType> schema;  // extension columns, in the order they are written
    std::vector<LevelRow> rows;
};

/// Level 0 = root samples in order (padding included); level d = the children of each FOLDER row
/// of level d-1 in row order (parent-major), as the reference writes them.
std::vector<LevelTable> build_level_tables(const Taco& taco);

/// Built-in descriptions of the core and internal columns (the reference's texts).
const std::string& column_description(const std::string& name);

/// The type a column of type `t` is stored as: every part still untyped, an all-null column or
/// the element of lists that were all empty or all null, becomes string (docs/FORMAT-DECISIONS.md).
DataType stored_type(const DataType& t);

}  // namespace taco::metadata
