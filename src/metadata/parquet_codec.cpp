#include "taco/parquet_codec.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace taco {

std::string parquet_codec_name(ParquetCodec codec) {
    switch (codec) {
        case ParquetCodec::Lz4Raw:
            return "lz4_raw";
        case ParquetCodec::Zstd:
            return "zstd";
    }
    return "zstd";
}

ParquetCodec parse_parquet_codec(const std::string& name) {
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    // Parquet's LZ4_RAW is plain LZ4 blocks; the deprecated Hadoop-framed "LZ4" codec is never
    // written, so "lz4" can only mean LZ4_RAW here.
    if (lower == "lz4_raw" || lower == "lz4") return ParquetCodec::Lz4Raw;
    if (lower == "zstd") return ParquetCodec::Zstd;
    throw std::invalid_argument("unknown Parquet codec '" + name +
                                "'; expected lz4_raw (the default) or zstd");
}

void check_zstd_level(int level, const std::string& what) {
    if (level >= -131072 && level <= 22) return;
    throw std::invalid_argument(what +
                                " must be a zstd level from -131072 to 22 (3 is zstd's "
                                "default), not " +
                                std::to_string(level));
}

}  // namespace taco
