#include "io/location.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "taco/errors.hpp"

namespace taco::io {
namespace {

constexpr std::array<std::string_view, 9> kVsiNetworkPrefixes = {
    "/vsicurl/",        "/vsis3/",  "/vsigs/",    "/vsiaz/",
    "/vsiadls/",        "/vsioss/", "/vsiswift/", "/vsicurl_streaming/",
    "/vsis3_streaming/"};

bool starts_with(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

std::string_view scheme_of(std::string_view s) {
    const size_t colon = s.find("://");
    if (colon == std::string_view::npos || colon == 0) return {};
    for (char c : s.substr(0, colon)) {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '-' && c != '.')
            return {};
    }
    return s.substr(0, colon);
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

}  // namespace

bool is_http_vsi(std::string_view vsi) {
    return starts_with(vsi, "/vsicurl/");
}

QuerySplit split_query(std::string_view vsi) {
    const size_t query = is_http_vsi(vsi) ? vsi.find('?') : std::string_view::npos;
    if (query == std::string_view::npos) return {vsi, {}};
    return {vsi.substr(0, query), vsi.substr(query)};
}

namespace {

// `base` + "/" + `name`, with the last `tail` characters of `base` (an HTTP URL's query string,
// `…/x?token=abc`) kept after it: the query is for the server, and each file of a FOLDER asks
// with the same one.
std::string join_before_tail(std::string_view base, size_t tail, std::string_view name) {
    const size_t cut = base.size() - std::min(tail, base.size());
    std::string out(base.substr(0, cut));
    out += '/';
    out += name;
    out += base.substr(cut);
    return out;
}

}  // namespace

Location Location::child(std::string_view name) const {
    // `text` is the URL as given (https://…), which split_query does not know as HTTP: both
    // spellings keep the query the VSI path has (none for a local path or an object store).
    const size_t query = split_query(vsi).query.size();
    Location out;
    out.text = join_before_tail(text, query, name);
    if (remote()) out.vsi = join_before_tail(vsi, query, name);
    return out;
}

std::string_view Location::path_part() const {
    const size_t query = split_query(vsi).query.size();
    return std::string_view(text).substr(0, text.size() - std::min(query, text.size()));
}

bool is_remote(std::string_view text) {
    for (std::string_view p : kVsiNetworkPrefixes)
        if (starts_with(text, p)) return true;
    return !scheme_of(text).empty() && lower(scheme_of(text)) != "file";
}

bool reaches_network(std::string_view gdal_path) {
    for (std::string_view p : kVsiNetworkPrefixes)
        if (gdal_path.find(p) != std::string_view::npos) return true;
    return false;
}

Location parse_location(std::string_view given) {
    std::string text(given);
    while (text.size() > 1 && text.back() == '/') text.pop_back();
    Location out;
    out.text = text;
    for (std::string_view p : kVsiNetworkPrefixes) {
        if (starts_with(text, p)) {
            out.vsi = text;
            return out;
        }
    }
    const std::string scheme = lower(scheme_of(text));
    if (scheme.empty()) return out;
    std::string rest = text.substr(scheme.size() + 3);
    if (scheme == "file") {
        out.text = rest;
        return out;
    }
    if (rest.empty() || rest.front() == '/') {
        throw IoError("'" + text + "': expected " + scheme + "://" +
                      (scheme.rfind("http", 0) == 0 ? "host/path" : "bucket/key"));
    }
    if (scheme == "http" || scheme == "https") {
        out.vsi = "/vsicurl/" + text;
    } else if (scheme == "s3") {
        out.vsi = "/vsis3/" + rest;
    } else if (scheme == "gs" || scheme == "gcs") {
        out.vsi = "/vsigs/" + rest;
    } else if (scheme == "az" || scheme == "azure" || scheme == "abfs" || scheme == "abfss") {
        // abfs://container@account.dfs.core.windows.net/path names the account in the host;
        // GDAL takes the account from AZURE_STORAGE_ACCOUNT / the connection string.
        const size_t at = rest.find('@');
        const size_t slash = rest.find('/');
        if (at != std::string::npos && (slash == std::string::npos || at < slash)) {
            rest = rest.substr(0, at) + (slash == std::string::npos ? "" : rest.substr(slash));
        }
        out.vsi = "/vsiaz/" + rest;
    } else {
        throw IoError("'" + text + "': unsupported URL scheme '" + scheme +
                      "://'; tacocore reads local paths, http(s)://, s3://, gs://, az://, "
                      "abfs:// and GDAL /vsi…/ paths");
    }
    return out;
}

}  // namespace taco::io
