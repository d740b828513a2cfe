// `taco validate` of a remote dataset: what a reader depends on, fetched as a reader fetches it
// (TACO_HEADER, COLLECTION.json, the level tables): header and slots, COLLECTION.json, level
// rows, PIT and the collection schemas. Checks that need every byte of the archive (central
// directory, CRCs, each __meta__) run on a local copy; an info finding says so.
#include "format/dataset_open.hpp"
#include "io/memfd.hpp"
#include "taco/errors.hpp"
#include "validate/validate_checks.hpp"
#include "validate/validate_tables.hpp"

namespace taco::format {

ContainerFormat validate_remote(const std::filesystem::path& path, FindingSink& sink,
                                metadata::DuckSession& db) {
    OpenedDataset opened;
    try {
        opened = open_remote_dataset(path, true);
    } catch (const SchemaError& e) {
        sink.error("collection.pit-schema", "COLLECTION.json", e.what());
        return ContainerFormat::Zip;
    } catch (const Error& e) {  // not a TACO dataset, or not there (IoError: 404, 403, ...)
        sink.error("container", path.string(), e.what());
        return ContainerFormat::Zip;
    }
    const std::optional<CollectionDocument> collection =
        check_collection(sink, opened.collection.text, "COLLECTION.json");
    TableChecks tables{sink, db, opened.format, {}};
    std::vector<std::unique_ptr<io::MemFd>> bytes;
    bool loaded = true;
    for (size_t i = 0; i < opened.levels.size() && loaded; ++i) {
        const LevelSource& level = opened.levels[i];
        auto mem = std::make_unique<io::MemFd>("taco-validate");
        try {
            (level.source ? level.source : opened.archive)
                ->copy_to_fd(level.offset, level.size, mem->fd(), level.name);
        } catch (const Error& e) {
            sink.error("table.unreadable", level.name, e.what());
            loaded = false;
            break;
        }
        LevelRows rows;
        rows.name = level.name;
        rows.parquet = mem->proc_path();
        bytes.push_back(std::move(mem));
        loaded = load_level(tables, rows, i);
        tables.levels.push_back(std::move(rows));
    }
    if (loaded) {
        check_level_rows(tables);
        check_pit(tables);
        if (collection) check_collection_schemas(tables, *collection);
    }
    sink.info("remote.scope", path.string(),
              "remote dataset: the metadata was checked (TACO_HEADER, COLLECTION.json, level "
              "tables, PIT, schemas); the archive's central directory, CRCs and __meta__ files "
              "are checked on a local copy");
    return opened.format;
}

}  // namespace taco::format
