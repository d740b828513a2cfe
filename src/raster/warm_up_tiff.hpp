// The bytes of a tiny GeoTIFF that a decoder warm-up reads (gdal_drivers.cpp).
#pragma once

namespace taco::raster {

extern const unsigned char kWarmUpTiff[];
extern const unsigned long kWarmUpTiffSize;

}  // namespace taco::raster
