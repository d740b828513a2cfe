// Messages for the application: taco::set_log_handler's handler receives warnings of tacocore
// itself (create: metadata rows missing) and of GDAL, whose process-wide error handler is
// installed here so that "ERROR 4: ..." is not printed on standard error beside our own message
// (a GDAL failure travels inside the IoError that follows, via CPLGetLastErrorMsg).
#pragma once

#include <string_view>

#include "taco/log.hpp"

namespace taco::log {

/// Installs the handler (once per process; cheap afterwards). Called wherever tacocore first
/// touches GDAL.
void route_gdal_messages();

/// Delivers a message to the application's handler, if any.
void emit(LogLevel level, std::string_view source, std::string_view message);

}  // namespace taco::log
