#include "paths/path_display.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <climits>
#include <cstdint>
#include <mutex>
#include <unordered_map>

namespace taco::paths {
namespace {

/// Length of the well-formed UTF-8 sequence at the start of `s` (RFC 3629: no overlong forms,
/// no surrogates, nothing past U+10FFFF), or 0 when the first byte does not start one.
size_t sequence_length(std::string_view s) {
    const auto b = [&](size_t i) { return static_cast<uint8_t>(s[i]); };
    const uint8_t c = b(0);
    if (c < 0x80) return 1;
    size_t n;
    uint8_t lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0) lo = 0xA0;  // overlong
        if (c == 0xED) hi = 0x9F;  // surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0) lo = 0x90;  // overlong
        if (c == 0xF4) hi = 0x8F;  // past U+10FFFF
    } else {
        return 0;  // a continuation byte, C0/C1 (always overlong) or F5..FF
    }
    if (s.size() < n || b(1) < lo || b(1) > hi) return 0;
    for (size_t i = 2; i < n; ++i) {
        if (b(i) < 0x80 || b(i) > 0xBF) return 0;
    }
    return n;
}

struct Remembered {
    std::string original;  // the path as given, bytes
    std::string target;    // what readlink(/proc/self/fd/N) said when it was anchored
};

std::mutex g_mutex;
std::unordered_map<int, Remembered> g_anchors;

std::string readlink_fd(int fd) {
    char buf[PATH_MAX];
    const std::string link = "/proc/self/fd/" + std::to_string(fd);
    const ssize_t n = ::readlink(link.c_str(), buf, sizeof buf);
    return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

/// The path /proc/self/fd/`fd` stood for, if it was an anchor's and the number has not since
/// been taken by another file (a memfd, say): a closed number still maps (a message built while
/// unwinding out of a failed open), an open one only if it still names the anchored inode.
const std::string* original_of(int fd) {
    auto it = g_anchors.find(fd);
    if (it == g_anchors.end()) return nullptr;
    if (::fcntl(fd, F_GETFD) != -1 && readlink_fd(fd) != it->second.target) return nullptr;
    return &it->second.original;
}

}  // namespace

std::string escape_invalid_utf8(std::string_view bytes, std::string_view prefix) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size());
    while (!bytes.empty()) {
        const size_t n = sequence_length(bytes);
        if (n == 0) {
            const auto c = static_cast<uint8_t>(bytes[0]);
            out += prefix;
            out += kHex[c >> 4];
            out += kHex[c & 0xF];
            bytes.remove_prefix(1);
        } else {
            out.append(bytes.data(), n);
            bytes.remove_prefix(n);
        }
    }
    return out;
}

void remember_anchor(int fd, std::string original_bytes) {
    std::string target = readlink_fd(fd);
    std::lock_guard<std::mutex> lock(g_mutex);
    g_anchors[fd] = {std::move(original_bytes), std::move(target)};
}

std::string name_anchored_paths(std::string_view text) {
    static constexpr std::string_view kPrefix = "/proc/self/fd/";
    std::string out;
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        size_t pos = 0;
        while (pos < text.size()) {
            const size_t at = g_anchors.empty() ? std::string_view::npos : text.find(kPrefix, pos);
            if (at == std::string_view::npos) break;
            size_t end = at + kPrefix.size();
            int fd = 0;
            while (end < text.size() && text[end] >= '0' && text[end] <= '9' && fd < 1000000)
                fd = fd * 10 + (text[end++] - '0');
            const std::string* original = end > at + kPrefix.size() ? original_of(fd) : nullptr;
            out.append(text.substr(pos, at - pos));
            if (original) {
                out += *original;
            } else {
                out.append(text.substr(at, end - at));
            }
            pos = end;
        }
        out.append(text.substr(pos));
    }
    return out;
}

std::string display_text(std::string_view text) {
    return escape_invalid_utf8(name_anchored_paths(text));
}

}  // namespace taco::paths
