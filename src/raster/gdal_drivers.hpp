// GDAL's driver registration, once per process, for every module that opens rasters.
#pragma once

namespace taco::raster {

/// Registers GDAL's drivers (and routes its messages to tacocore's log) once per process; every
/// GDAL open in tacocore calls it first. The first call costs ~3 ms (GDALAllRegister), which
/// `from osgeo import gdal` pays at import: a benchmark that compares decode times calls it
/// before its clock starts. Safe from any thread: a concurrent first call waits for the one
/// registering (two concurrent GDALAllRegister() leak a driver object).
void register_drivers();

/// Starts register_drivers() on a helper thread unless it has run or started: load() calls it
/// once its own work no longer needs the second core, so that a dataset's first raster read does
/// not pay for the registration. The helper then decodes a tiny GeoTIFF from memory (~0.4 ms),
/// so that read does not pay GDAL's first-open costs either. A fork() waits for the helper first
/// (pthread_atfork): a child forked in the middle of GDALAllRegister could inherit one of GDAL's
/// locks held by no thread and hang on its first open (a DataLoader forks its workers right after
/// load()). The helper is joined at exit.
void register_drivers_in_background();

}  // namespace taco::raster
