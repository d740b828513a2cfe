#include "convert/sample_copy.hpp"

#include "convert/source_crcs.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "io/cancel.hpp"
#include "io/file.hpp"
#include "io/location.hpp"
#include "query/navigation.hpp"
#include "query/vsi_path.hpp"
#include "taco/errors.hpp"

namespace taco::convert {
namespace {

constexpr uint64_t kPiece = uint64_t{4} << 20;  // remote reads and the fallback copy

[[noreturn]] void write_failed(const std::string& out_name, int err) {
    throw IoError("cannot write to " + out_name + ": " + std::strerror(err));
}

// [offset, offset + n) of `in` to `out` at 0, in the kernel where it can.
void copy_range_local(int in, uint64_t offset, uint64_t n, int out, const std::string& in_name,
                      const std::string& out_name) {
    // Blocks allocated up front: ext4 then skips its per-page delayed-allocation work in the
    // copy (about a fifth of its CPU here). Only a hint: where unsupported, the copy reports.
    if (n > 0) ::fallocate(out, FALLOC_FL_KEEP_SIZE, 0, static_cast<off_t>(n));
    loff_t in_off = static_cast<loff_t>(offset), out_off = 0;
    uint64_t done = 0;
    while (done < n) {
        const size_t piece = static_cast<size_t>(std::min<uint64_t>(n - done, uint64_t{1} << 30));
        const ssize_t c = ::copy_file_range(in, &in_off, out, &out_off, piece, 0);
        if (c > 0) {
            done += static_cast<uint64_t>(c);
            continue;
        }
        if (c == 0) {
            throw IoError(in_name + " ended while its bytes were copied (expected " +
                          std::to_string(n) + " bytes at offset " + std::to_string(offset) + ")");
        }
        if (errno == EINTR) continue;
        if (errno != EXDEV && errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
            write_failed(out_name, errno);
        break;  // not offered between these two files: copy through a buffer
    }
    if (done == n) return;
    std::vector<char> buf(static_cast<size_t>(std::min<uint64_t>(n - done, kPiece)));
    while (done < n) {
        const size_t piece = static_cast<size_t>(std::min<uint64_t>(buf.size(), n - done));
        io::pread_exact(in, offset + done, buf.data(), piece, in_name);
        io::pwrite_all(out, done, buf.data(), piece, out_name);
        done += piece;
    }
}

}  // namespace

uint64_t copy_sample_to_file(query::DatasetContext& ctx, std::string_view vsi,
                             const std::string& sample, int out_fd, const std::string& out_name) {
    const query::FileRange r = query::locate_file(ctx, vsi, [&] { return "'" + sample + "'"; });
    return copy_range_to_file(r, sample, out_fd, out_name);
}

uint64_t copy_range_to_file(const query::FileRange& r, const std::string& sample, int out_fd,
                            const std::string& out_name) {
    const int in = r.source->local_fd();
    if (in >= 0) {
        copy_range_local(in, r.offset, r.size, out_fd, r.source->name(), out_name);
        return r.size;
    }
    std::vector<char> buf(static_cast<size_t>(std::min<uint64_t>(r.size, kPiece)));
    for (uint64_t done = 0; done < r.size;) {
        io::throw_if_cancelled("copying a remote sample");
        const size_t piece = static_cast<size_t>(std::min<uint64_t>(buf.size(), r.size - done));
        r.source->read_at(r.offset + done, buf.data(), piece, "sample '" + sample + "'");
        io::pwrite_all(out_fd, done, buf.data(), piece, out_name);
        done += piece;
    }
    return r.size;
}

size_t copy_sample_to_zip(query::DatasetContext& ctx, std::string_view vsi,
                          const std::string& sample, format::ZipWriter& zip, std::string_view entry,
                          SourceCrcs& crcs) {
    const query::FileRange r = query::locate_file(ctx, vsi, [&] { return "'" + sample + "'"; });
    const int in = r.source->local_fd();
    if (in >= 0) {
        if (const auto crc = crcs.find(*r.source, r.offset, r.size))
            return zip.add_fd_range_with_crc(entry, in, r.offset, r.size, *crc, r.source->name());
        return zip.add_fd_range_kernel(entry, in, r.offset, r.size, r.source->name());
    }
    // Remote: the CRC goes into the local header before the data, so the sample is fetched whole.
    return zip.add_bytes(entry, r.source->read_string(r.offset, r.size, "sample '" + sample + "'"));
}

}  // namespace taco::convert
