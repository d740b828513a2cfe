// Recognising a legacy TACO v1 dataset (.taco / .tortilla files, tacofoundation: names): valid
// data in a layout tacocore does not load. Shared by container detection, which refuses it with a
// FormatError, and `validate`, which reports it as unsupported (exit 2) rather than invalid.
#pragma once

#include <filesystem>

namespace taco::format {

/// True when `path` names or holds a legacy v1 dataset: by its name, or (for a local file) by the
/// v1 magic bytes ("#y" or "WX") at its start.
bool is_legacy_v1(const std::filesystem::path& path);

/// The code of the validation finding for a dataset tacocore recognises but cannot check.
inline constexpr const char* kUnsupportedFinding = "container.unsupported";

}  // namespace taco::format
