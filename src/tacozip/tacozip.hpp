// The tacozip library's three operations (the reference's low-level ZIP writer: create,
// read_header, update_header) on tacocore's own ZIP code, for tacocore.tacozip. The bytes are
// libzip's as tacozip writes them (FORMAT.md §2.2-§2.6); the checks are stricter: a header slot
// must be the data of an entry of the archive, entry names must be unique and relative, and
// nothing half-written or unrelated is ever left in place of the output.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "format/taco_header.hpp"

namespace taco::tacozip {

/// One file to store: its bytes come from `source`, its name in the archive is `name`.
struct SourceEntry {
    std::filesystem::path source;
    std::string name;
};

/// The (offset, length) pairs a caller gives, as tacozip takes them: (0, 0) pairs at the end
/// are unused slots and dropped. std::invalid_argument for more than 7 pairs or a used pair after
/// an unused one (tacozip would store a count that hides it from every reader).
format::TacoHeader header_from_pairs(const std::vector<std::pair<uint64_t, uint64_t>>& pairs);

/// Writes `zip_path`: TACO_HEADER holding `header`, then every entry in order, STORE, with the
/// source file's mtime and mode as tacozip gives them. The archive is staged beside the target
/// and renamed into place when complete; an existing target is replaced only when it is a TACO
/// ZIP that is not one of the sources. Errors: std::invalid_argument for no entries, a name that
/// is empty, absolute, has a `..` part, ends in '/' or repeats, or a header slot that is not
/// exactly the data (offset of the first byte, length) of one of the written entries;
/// taco::IoError for a source or target that cannot be read or written.
void create(const std::filesystem::path& zip_path, const std::vector<SourceEntry>& entries,
            const format::TacoHeader& header);

/// The header of a TACO ZIP (parse_taco_header's checks). taco::IoError / taco::FormatError.
format::TacoHeader read_header(const std::filesystem::path& zip_path);

/// Replaces the header's payload in place, with its CRC in the local header and in the first
/// central directory record, which must be TACO_HEADER's: no other byte changes (FORMAT.md §2.4).
/// The archive's framing is checked first (taco::FormatError), and every slot must be the data of
/// one of its entries (std::invalid_argument), so a header can only point readers at real bytes.
void update_header(const std::filesystem::path& zip_path, const format::TacoHeader& header);

}  // namespace taco::tacozip
