// SHA-256 (FIPS 180-4) of a local file, for the checksums Croissant asks of every distributed
// file. Small and self-contained: nothing else in the core needs a cryptographic hash.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace taco::catalog {

/// Lower-case hex SHA-256 of the file's bytes. IoError when it cannot be read.
std::string sha256_file(const std::filesystem::path& path);

/// Lower-case hex SHA-256 of `bytes` (for tests and small inputs).
std::string sha256_bytes(std::string_view bytes);

}  // namespace taco::catalog
