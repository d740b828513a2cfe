// Samples as the metadata table the writer would make of them: tacotoolbox's
// Sample.export_metadata() and Tortilla.export_metadata() (REFERENCE-API.md B2, B3), for
// looking at a sample's columns and types before writing.
#pragma once

#include <memory>
#include <vector>

#include "metadata/duckdb_session.hpp"
#include "metadata/result_table.hpp"
#include "taco/sample.hpp"

namespace taco::toolbox {

/// One row per sample, in order: `id`, `type`, `path` (the FILE's path on disk; null for bytes
/// held in memory and for a FOLDER), then every extension field, in the order first seen, its
/// type unified over the samples. Types are the stored ones (untyped parts string, a fixed-size
/// list a list: metadata::stored_type). SchemaError naming the column when two samples give it
/// types that do not unify. Runs one statement on `db`.
std::shared_ptr<const metadata::ResultTable> samples_table(
    const std::vector<const Sample*>& samples, metadata::DuckSession& db);

}  // namespace taco::toolbox
