#include "query/vsi_path.hpp"

#include "model/decimal.hpp"
#include "taco/errors.hpp"

namespace taco::query {
namespace {

bool parse_u64(std::string_view s, uint64_t& out) {
    const std::optional<uint64_t> value = parse_decimal(s);
    if (value) out = *value;
    return value.has_value();
}

}  // namespace

std::optional<SubfileRef> parse_vsi_subfile(std::string_view vsi) {
    if (vsi.substr(0, kVsiSubfile.size()) != kVsiSubfile) return std::nullopt;
    const std::string_view rest = vsi.substr(kVsiSubfile.size());
    const size_t comma = rest.find(',');
    const size_t underscore = rest.substr(0, comma).find('_');
    SubfileRef ref;
    if (comma == std::string_view::npos || underscore == std::string_view::npos ||
        !parse_u64(rest.substr(0, underscore), ref.offset) ||
        !parse_u64(rest.substr(underscore + 1, comma - underscore - 1), ref.size)) {
        throw FormatError(
            "invalid GDAL path '" + std::string(vsi) +
            "': expected /vsisubfile/{offset}_{size},{file} with integer offset and size");
    }
    ref.root = rest.substr(comma + 1);
    return ref;
}

void write_vsi_subfile(std::string& out, int64_t offset, int64_t size, std::string_view root) {
    char buf[24];
    out.assign(kVsiSubfile);
    out.append(buf, std::to_chars(buf, buf + sizeof buf, offset).ptr);
    out += '_';
    out.append(buf, std::to_chars(buf, buf + sizeof buf, size).ptr);
    out += ',';
    out += root;
}

void append_path(std::string& out, std::string_view name, bool url) {
    if (!url) {
        out += name;
        return;
    }
    static constexpr char kHex[] = "0123456789ABCDEF";
    for (const char ch : name) {
        const auto c = static_cast<unsigned char>(ch);
        const bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                          (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~' ||
                          c == '/';
        if (keep) {
            out += ch;
        } else {
            out += '%';
            out += kHex[c >> 4];
            out += kHex[c & 15];
        }
    }
}

std::string url_path_sql(const std::string& name_sql) {
    return "replace(url_encode(" + name_sql + "), '%2F', '/')";
}

std::string make_vsi_subfile(int64_t offset, int64_t size, std::string_view root) {
    std::string out;
    write_vsi_subfile(out, offset, size, root);
    return out;
}

}  // namespace taco::query
