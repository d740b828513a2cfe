// Collection indexes over TACO ZIP parts (spec §6.5, §6.6; FORMAT.md §6, §7): the `.tacocat/`
// folder the reference reads today, the spec's single file `__TACOCAT__`, and the global
// description TACOLLECTION.json. load() reads the indexes (see dataset.hpp).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace taco {

enum class TacocatFormat { Folder, File };
/// "folder" / "file"; QueryError for anything else.
TacocatFormat parse_tacocat_format(const std::string& name);

/// Writes the index of `parts` (TACO ZIP files, in this order) into `output_dir`:
/// `.tacocat/` (level0..N.parquet with `internal:source_file` = each part's file name, and the
/// merged COLLECTION.json) or the single file `__TACOCAT__`. Reads every part's level tables and
/// COLLECTION.json; nothing else of the parts. Returns the path written.
/// Errors: SchemaError naming the part and the difference when the parts disagree in PIT
/// structure, field schema or level columns; IoError when a part is missing or the output
/// exists (never overwritten); FormatError when a part is not a TACO ZIP. Nothing half-written
/// remains on failure.
std::filesystem::path create_tacocat(const std::vector<std::filesystem::path>& parts,
                                     const std::filesystem::path& output_dir,
                                     TacocatFormat format = TacocatFormat::Folder);

/// The merged COLLECTION.json of `parts` (FORMAT.md §7): the first part's document with the
/// `taco:pit_schema` counts summed, the extent merged and `taco:sources` appended; text as
/// Python's json.dump(indent=4) with ASCII escaping. Same errors as create_tacocat.
std::string tacollection_json(const std::vector<std::filesystem::path>& parts);

/// Writes `output_dir/TACOLLECTION.json` (spec §6.6). Returns its path. IoError if it exists.
std::filesystem::path create_tacollection(const std::vector<std::filesystem::path>& parts,
                                          const std::filesystem::path& output_dir);

/// The same document at the file path `output` (tacotoolbox's create_tacollection takes the
/// file's path: 'TACOLLECTION.json', '.tacocat/COLLECTION.json'); missing parent directories are
/// made. Returns `output`. IoError if it exists.
std::filesystem::path create_tacollection_file(const std::vector<std::filesystem::path>& parts,
                                               const std::filesystem::path& output);

}  // namespace taco
