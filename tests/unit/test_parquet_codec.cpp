// The codec of the level tables tacocore writes (include/taco/parquet_codec.hpp): LZ4_RAW by
// default, zstd when asked, for create() and export_dataset(); __meta__ stays zstd (the
// reference's). Read from the files' own Parquet footers through DuckDB's parquet_metadata, and
// the data read back equal whichever codec wrote it.
#include <set>
#include <stdexcept>

#include "metadata/result_table.hpp"
#include "reader_test_util.hpp"
#include "taco/convert.hpp"
#include "taco/parquet_codec.hpp"

namespace taco::test {
namespace {

// Every codec DuckDB reports for the column chunks of the Parquet file at `path`.
std::set<std::string> codecs_of(const fs::path& path) {
    metadata::DuckSession db;
    auto t = metadata::ResultTable::fetch(db, "SELECT DISTINCT compression FROM parquet_metadata(" +
                                                  metadata::quote_literal(path.string()) + ")");
    std::set<std::string> out;
    for (size_t r = 0; r < t->rows(); ++r) out.insert(std::string(t->get_string(r, 0)));
    return out;
}

// The level-0 rows as text, cell by cell (ids, columns, offsets): what must not depend on the
// codec.
std::string contents_of(const fs::path& dataset) {
    const Dataset ds = load(dataset);
    const DataFrame rows = ds.data();
    std::string out;
    const std::vector<std::string> names = rows.column_names();
    for (size_t r = 0; r < rows.rows(); ++r) {
        for (size_t c = 0; c < rows.columns(); ++c) {
            if (names[c] == "internal:gdal_vsi") continue;  // names the dataset's own directory
            out += rows.value(r, c).to_display() + "|";
        }
    }
    return out;
}

TEST(ParquetCodec, LevelTablesAreLz4RawByDefaultAndMetaFilesStayZstd) {
    TempDir dir;
    create(deep_taco(3, 0), dir / "lz4");
    EXPECT_EQ(codecs_of(dir / "lz4" / "METADATA" / "level0.parquet"),
              std::set<std::string>{"LZ4_RAW"});
    EXPECT_EQ(codecs_of(dir / "lz4" / "METADATA" / "level2.parquet"),
              std::set<std::string>{"LZ4_RAW"});
    EXPECT_EQ(codecs_of(dir / "lz4" / "DATA" / "tile_00" / "__meta__"),
              std::set<std::string>{"ZSTD"});

    CreateOptions zstd;
    zstd.level_codec = ParquetCodec::Zstd;
    create(deep_taco(3, 0), dir / "zstd", zstd);
    EXPECT_EQ(codecs_of(dir / "zstd" / "METADATA" / "level0.parquet"),
              std::set<std::string>{"ZSTD"});
    EXPECT_EQ(contents_of(dir / "lz4"), contents_of(dir / "zstd"));
}

TEST(ParquetCodec, ExportWritesTheCodecItIsAskedFor) {
    TempDir dir;
    create(flat_taco(20), dir / "src.tacozip");
    const Dataset view = load(dir / "src.tacozip").sql("SELECT * FROM data WHERE count >= 50");
    export_dataset(view, dir / "lz4");
    ExportOptions zstd;
    zstd.level_codec = ParquetCodec::Zstd;
    export_dataset(view, dir / "zstd", zstd);
    EXPECT_EQ(codecs_of(dir / "lz4" / "METADATA" / "level0.parquet"),
              std::set<std::string>{"LZ4_RAW"});
    EXPECT_EQ(codecs_of(dir / "zstd" / "METADATA" / "level0.parquet"),
              std::set<std::string>{"ZSTD"});
    EXPECT_EQ(contents_of(dir / "lz4"), contents_of(dir / "zstd"));
    EXPECT_EQ(load(dir / "lz4").count(), 15u);
}

TEST(ParquetCodec, NamesParseAndUnknownOnesAreRefusedWithTheChoices) {
    EXPECT_EQ(parse_parquet_codec("lz4_raw"), ParquetCodec::Lz4Raw);
    EXPECT_EQ(parse_parquet_codec("LZ4"), ParquetCodec::Lz4Raw);
    EXPECT_EQ(parse_parquet_codec("Zstd"), ParquetCodec::Zstd);
    EXPECT_EQ(parquet_codec_name(ParquetCodec::Lz4Raw), "lz4_raw");
    EXPECT_EQ(parquet_codec_name(ParquetCodec::Zstd), "zstd");
    try {
        parse_parquet_codec("gzip");
        FAIL() << "gzip accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_TRUE(contains(e.what(), "'gzip'")) << e.what();
        EXPECT_TRUE(contains(e.what(), "lz4_raw")) << e.what();
        EXPECT_TRUE(contains(e.what(), "zstd")) << e.what();
    }
}

}  // namespace
}  // namespace taco::test
