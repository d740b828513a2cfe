// tacozip's operations (src/tacozip/tacozip.hpp) for tacocore.tacozip, the drop-in for the
// reference's low-level ZIP writer. Argument checks that tacozip makes in Python (types, ranges,
// archive names) are made in tacocore/tacozip.py; these take what it has checked.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "format/taco_header.hpp"
#include "py_common.hpp"
#include "py_paths.hpp"
#include "tacozip/tacozip.hpp"

using namespace nb::literals;

namespace taco::py {

using Pairs = std::vector<std::pair<uint64_t, uint64_t>>;

void bind_tacozip(nb::module_& m) {
    m.def(
        "tacozip_create",
        [](const std::filesystem::path& zip_path,
           const std::vector<std::pair<std::filesystem::path, std::string>>& files,
           const Pairs& pairs) {
            std::vector<tacozip::SourceEntry> entries;
            entries.reserve(files.size());
            for (const auto& [source, name] : files) entries.push_back({source, name});
            const format::TacoHeader header = tacozip::header_from_pairs(pairs);
            GilRelease release;
            tacozip::create(zip_path, entries, header);
        },
        "zip_path"_a, "files"_a, "entries"_a,
        "Writes a STORE ZIP: TACO_HEADER holding the (offset, length) entries, then the "
        "(source, archive name) files; staged, replacing only a TACO ZIP.");
    m.def(
        "tacozip_read_header",
        [](const std::filesystem::path& zip_path) {
            GilRelease release;
            return tacozip::read_header(zip_path).slots;
        },
        "zip_path"_a, "The (offset, length) pairs of a TACO ZIP's header.");
    m.def(
        "tacozip_parse_header",
        [](nb::bytes head) {
            return format::parse_taco_header(reinterpret_cast<const uint8_t*>(head.c_str()),
                                             head.size(), "header bytes",
                                             format::SlotsPastCount::Ignored)
                .slots;
        },
        "head"_a, "The (offset, length) pairs of a TACO ZIP's first 157+ bytes.");
    m.def(
        "tacozip_update_header",
        [](const std::filesystem::path& zip_path, const Pairs& pairs) {
            const format::TacoHeader header = tacozip::header_from_pairs(pairs);
            GilRelease release;
            tacozip::update_header(zip_path, header);
        },
        "zip_path"_a, "entries"_a, "Replaces a TACO ZIP's header payload and its CRCs in place.");
}

}  // namespace taco::py
