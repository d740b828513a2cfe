// Where a dataset lives: a local path or a remote location (https, s3, gs, az/abfs, or a GDAL
// /vsi... path). Remote locations are kept as strings and turned into GDAL VSI paths here, so no
// URL ever goes through std::filesystem normalisation (which would collapse the `//`).
#pragma once

#include <string>
#include <string_view>

namespace taco::io {

struct Location {
    std::string text;  // as the user gave it (trailing '/' removed)
    std::string vsi;   // the GDAL path that reads it ("/vsicurl/https://…"); empty when local

    bool remote() const { return !vsi.empty(); }
    /// The location of `name` inside this one (a FOLDER's file), in both spellings; an HTTP
    /// URL's query string (`?token=…`) stays at the end.
    Location child(std::string_view name) const;
    /// `text` without an HTTP URL's query string: what names the file (its suffix).
    std::string_view path_part() const;
};

/// Whether GDAL reads `vsi` over plain HTTP(S) (/vsicurl/): it hands the path to the server as
/// written, so names appended to it must be percent-encoded (a sample id "g h" or "a#b" would ask
/// for another resource), a query string stays at its end, and reads may carry HTTP conditions.
/// /vsis3/, /vsigs/ and /vsiaz/ encode keys themselves.
bool is_http_vsi(std::string_view vsi);

/// An HTTP VSI path cut before its query string: `/vsicurl/https://h/ds?token=abc` is
/// {"/vsicurl/https://h/ds", "?token=abc"}. Any other path is whole with an empty query (a local
/// name may contain '?'). A FOLDER's files are asked for with the query after their own path.
struct QuerySplit {
    std::string_view path;
    std::string_view query;
};
QuerySplit split_query(std::string_view vsi);

/// True for the URL schemes and GDAL network prefixes tacocore reads remotely.
bool is_remote(std::string_view text);

/// True when GDAL reading `gdal_path` reaches the network: a network prefix anywhere in it, also
/// behind a wrapper (`/vsisubfile/o_s,/vsicurl/...`, `/vsizip//vsis3/...`).
bool reaches_network(std::string_view gdal_path);

/// `text` as a Location: `http(s)://` -> /vsicurl/, `s3://b/k` -> /vsis3/b/k, `gs://` / `gcs://`
/// -> /vsigs/, `az://c/b` / `azure://c/b` / `abfs(s)://c[@account.host]/b` -> /vsiaz/c/b; GDAL's
/// own network prefixes (/vsicurl/, /vsis3/, /vsigs/, /vsiaz/, /vsiadls/, /vsioss/, /vsiswift/)
/// pass through unchanged. Anything else is local (vsi empty). Throws IoError for an
/// unsupported scheme (e.g. ftp://) or a URL without a bucket/host.
Location parse_location(std::string_view text);

}  // namespace taco::io
