// The rows of a frame as `taco sql --csv` and `--json` print them (and the table view's cells),
// appended to a string. Each
// cell gets exactly the bytes value_to_text / value_to_json would give it (unit-tested against
// them), but the common column types (integers, booleans, floats, timestamps, dates, text, bytes)
// are read with the frame's typed getters and written in place: going through a Value and a JSON
// tree per cell made `--csv` of 500,000 rows take 1 s, six times DuckDB's own CSV writer.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "taco/dataframe.hpp"

namespace taco::cli {

/// Column labels for JSON objects: the column names, a repeated name with a `_1`, `_2`... suffix.
std::vector<std::string> json_labels(const DataFrame& df);

class RowText {
  public:
    /// Reads the column types and labels of `df`, which must outlive this object.
    explicit RowText(const DataFrame& df);

    /// Appends row `row` as one CSV line (null cells empty), ending in '\n'.
    void append_csv(std::string& out, size_t row) const;
    /// Appends row `row` as one compact JSON object; text that is not UTF-8 gets U+FFFD.
    void append_json(std::string& out, size_t row) const;
    /// Appends one cell as value_to_text prints it ("null" for a null cell): the table view.
    void append_text(std::string& out, size_t row, size_t col) const;

  private:
    enum class Kind { Int, Bool, Float32, Float64, Timestamp, Date, Text, Bytes, Other };
    void append_json_cell(std::string& out, size_t row, size_t col) const;
    void append_csv_cell(std::string& out, size_t row, size_t col) const;

    const DataFrame& df_;
    std::vector<Kind> kinds_;
    std::vector<std::string> json_keys_;  // "label": as JSON text, colon included
};

}  // namespace taco::cli
