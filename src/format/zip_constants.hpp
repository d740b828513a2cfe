// ZIP record signatures and sizes (APPNOTE 6.3), shared by the writer and the reader.
#pragma once

#include <cstddef>
#include <cstdint>

namespace taco::format::zip {

constexpr uint32_t kLocalHeaderSignature = 0x04034b50;
constexpr uint32_t kCentralHeaderSignature = 0x02014b50;
constexpr uint32_t kEndSignature = 0x06054b50;
constexpr uint32_t kZip64EndSignature = 0x06064b50;
constexpr uint32_t kZip64LocatorSignature = 0x07064b50;

constexpr size_t kLocalHeaderFixed = 30;
constexpr size_t kCentralHeaderFixed = 46;
constexpr size_t kEndSize = 22;
constexpr size_t kZip64EndSize = 56;
constexpr size_t kZip64LocatorSize = 20;

constexpr uint16_t kZip64ExtraId = 0x0001;

}  // namespace taco::format::zip
