// The fuzz input as a ByteSource, for the targets whose parser reads only through read_at.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "io/byte_source.hpp"

namespace taco::fuzz {

class MemorySource final : public io::ByteSource {
  public:
    MemorySource(const uint8_t* data, size_t size) : data_(data), size_(size) {}
    const std::string& name() const override { return name_; }
    uint64_t size() const override { return size_; }
    void read_at(uint64_t offset, void* buf, size_t n, const std::string& what) const override {
        check_range(offset, n, what);
        if (n) std::memcpy(buf, data_ + offset, n);
    }

  private:
    const uint8_t* data_;
    size_t size_;
    std::string name_ = "fuzz";
};

}  // namespace taco::fuzz
