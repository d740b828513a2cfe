// Printing DataFrames for the read commands: JSON (machine), CSV, and an aligned text table
// (people). Each cell is formatted as text/value_text.hpp says.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "taco/dataframe.hpp"
#include "taco/value.hpp"
#include "text/value_text.hpp"

namespace taco::cli {

/// Rows as a JSON array of objects on one line (a repeated column name gets a `_1`, `_2`...
/// suffix), each row as `taco sql --json` streams it.
void print_json_frame(std::ostream& out, const DataFrame& df);
/// RFC 4180 CSV with a header row; null cells are empty.
void print_csv(std::ostream& out, const DataFrame& df);
/// The pieces of print_csv and of a JSON array of row objects, for output printed batch by batch
/// (Dataset::stream_raw): the header line, then the rows of each batch. `first` says no row was
/// printed before (no comma in front).
void print_csv_header(std::ostream& out, const DataFrame& df);
void print_csv_header(std::ostream& out, const std::vector<ColumnType>& columns);
void print_csv_rows(std::ostream& out, const DataFrame& df);
void print_json_rows(std::ostream& out, const DataFrame& df, bool first);
/// Aligned columns with a header; cells longer than `max_cell` characters are shortened with "…".
void print_table(std::ostream& out, const DataFrame& df, size_t max_cell = 48);
/// Prints `j` on one line followed by a newline.
void print_json(std::ostream& out, const Json& j);

/// Runs a read command. NavigationError and QueryError mean a bad ROWPATH or query, i.e. a usage
/// error: they are printed and give exit code 2. Other errors go on to run_guarded.
int run_read_command(const std::function<int()>& body);

/// Splits "a/b/c" into {"a", "b", "c"} (empty components are dropped).
std::vector<std::string> split_rowpath(std::string_view rowpath);

}  // namespace taco::cli
