// The compression codec of the METADATA/levelN.parquet files tacocore writes.
#pragma once

#include <string>

namespace taco {

/// LZ4_RAW (the default) decodes about twice as fast as zstd and makes level tables ~35% larger;
/// zstd is the reference's choice and the smaller file (a remote load fetches fewer bytes).
/// Both are standard Parquet codecs every reader of TACO (pyarrow, DuckDB, GDAL) decodes; the
/// trade-off is measured in docs/FORMAT-DECISIONS.md.
enum class ParquetCodec { Lz4Raw, Zstd };

/// "lz4_raw" or "zstd".
std::string parquet_codec_name(ParquetCodec codec);
/// The codec a name stands for ("lz4", "lz4_raw", "zstd", any case); std::invalid_argument naming
/// the codecs there are otherwise.
ParquetCodec parse_parquet_codec(const std::string& name);

/// std::invalid_argument (a ValueError in Python) naming `what` unless `level` is a zstd level
/// DuckDB writes (-131072..22; 3 is zstd's default): checked before anything is written, where
/// DuckDB would otherwise fail mid-way with a binder error that names neither.
void check_zstd_level(int level, const std::string& what = "compression_level");

}  // namespace taco
