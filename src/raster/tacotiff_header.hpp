// The TACOTIFF binary header (tacotoolbox's TACOTIFFHeader sample extension, `taco:header`): what
// the tacotiff GDAL driver needs to read a tiled GeoTIFF without parsing its IFD. Read here from
// the file's first IFD (classic TIFF or BigTIFF, either byte order) without GDAL, and packed as
// the tacotiff package packs it (tacotiff 0.0.6 core.py, little-endian, no padding):
//
//   magic u32 0x45564F4C ("LOVE"), version u16 1, image width u32, image length u32,
//   tile width u16, tile length u16, samples per pixel u16, bits per sample u8,
//   sample format u8, predictor u8, first tile offset u64, tile count u32      (35 bytes)
//   then each tile's byte count (u32), tiles in the order they lie in the file.
#pragma once

#include <string>

#include "io/byte_source.hpp"

namespace taco::raster {

/// The header of the TIFF at local path `path`; `what` names it in errors. SchemaError when the
/// file is not a tiled TIFF, lacks BitsPerSample, SampleFormat or Predictor (tacotiff requires
/// them), or holds a value the header cannot (a tile wider than 65,535 pixels, a byte count
/// over 4 GiB); FormatError for a damaged TIFF; IoError when it cannot be read.
std::string tacotiff_header(const std::string& path, const std::string& what);
/// The same from the bytes of `source` (the parser reads only through read_at).
std::string tacotiff_header(const io::ByteSource& source, const std::string& what);

}  // namespace taco::raster
