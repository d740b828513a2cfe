// libFuzzer target: COLLECTION.json parsing — JSON (depth limit, duplicate keys), the collection
// fields, taco:pit_schema and taco:field_schema — on arbitrary text.
#include <cstddef>
#include <cstdint>
#include <string>

#include "format/collection_schema.hpp"
#include "taco/errors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        taco::format::read_collection_document(
            std::string(reinterpret_cast<const char*>(data), size), "fuzz: COLLECTION.json");
    } catch (const taco::Error&) {
    }
    return 0;
}
