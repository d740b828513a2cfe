// One row of an Arrow C stream read straight from its buffers, typed from its schema: what
// `Sample.extend_with(<1-row pyarrow Table>)` adds, without a Python object per cell. A metadata
// table sliced into one table per sample (tacotoolbox's idiom) spent ~6 us per sample making
// pyarrow scalars and Python values; this takes ~1 us (issue 15: Python create within 2x of the
// CLI). Many such rows, concatenated into one table, are read in one pass (arrow_rows_fields):
// pyarrow's export and stream callbacks then cost once instead of ~9 us per sample.
#pragma once

#include <optional>
#include <vector>

#include "taco/value.hpp"

struct ArrowArrayStream;

namespace taco::py {

/// The fields of the one row of `stream` (consumed), each typed from its Arrow type, nested ones
/// included (list, large list, fixed-size list, struct, map, decimal128, dictionary as its
/// values; string and binary views too), with the model's normalisations: int8/16 -> int32,
/// unsigned -> int64, float16 -> double, every timestamp unit -> microseconds (nanoseconds
/// floored), timestamp_tz when the column has a zone (any zone: an instant), date64 -> date; a
/// null keeps its column's type. nullopt when the stream holds something this reader leaves to
/// the pyarrow-scalar path (_toolbox._arrow_fields): another type (time, duration, run-end
/// encoded, list views, ...), a value beyond the model's (a uint64 or a time past int64
/// microseconds), text that is not UTF-8, not exactly one row, or a stream error.
std::optional<std::vector<Field>> arrow_row_fields(ArrowArrayStream* stream);

/// The fields of each of the `rows` rows of `stream` (consumed), in order, typed as
/// arrow_row_fields types them; nullopt in the same cases, or when the stream does not hold
/// exactly `rows` rows. Nothing is applied anywhere, so a caller can fall back row by row.
std::optional<std::vector<std::vector<Field>>> arrow_rows_fields(ArrowArrayStream* stream,
                                                                 size_t rows);

/// The one row of `stream` (consumed), column by column: a column arrow_row_fields reads is
/// read as it reads it (a null keeps its type); nullopt for a column of another type or a value
/// it declines, which the pyarrow-scalar path converts (or reports, naming the field). So a
/// column is typed the same whichever path its row takes. nullopt when the stream is not
/// exactly one row of a table, or fails.
std::optional<std::vector<std::optional<Value>>> arrow_row_cells(ArrowArrayStream* stream);

}  // namespace taco::py
