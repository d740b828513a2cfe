// GDAL VSI behind io::ByteSource. Request budget (measured against nginx's access log): opening
// costs one HEAD (VSIGetFileMetadata "HEADERS", whose answer GDAL keeps as the file's size, so
// the VSIFOpenL after it sends nothing); each read of bytes not held is one ranged GET.
#include "io/remote_source.hpp"

#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_http.h>
#include <cpl_string.h>
#include <cpl_vsi.h>
#include <cpl_vsi_error.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <regex>
#include <sstream>
#include <thread>

#include "log/messages.hpp"
#include "process/fork_relay.hpp"
#include "taco/errors.hpp"

namespace taco::io {
namespace {

// GDAL reports errors through a per-thread handler stack: while one of these lives, nothing is
// printed and the last message is read back into the IoError.
class QuietErrors {
  public:
    QuietErrors() {
        log::route_gdal_messages();  // for messages of other threads GDAL works on
        CPLPushErrorHandler(CPLQuietErrorHandler);
        CPLErrorReset();
        VSIErrorReset();
    }
    ~QuietErrors() { CPLPopErrorHandler(); }
    QuietErrors(const QuietErrors&) = delete;
    QuietErrors& operator=(const QuietErrors&) = delete;
};

std::string upper(std::string s) {
    for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

// The defaults every remote read relies on, unless the user set them (environment or GDAL
// configuration): no directory listing on open, a timeout on every request, retries on 5xx.
void set_defaults_once() {
    static std::once_flag once;
    std::call_once(once, [] {
        const std::pair<const char*, const char*> defaults[] = {
            {"GDAL_DISABLE_READDIR_ON_OPEN", "EMPTY_DIR"},
            {"GDAL_HTTP_TIMEOUT", "30"},
            {"GDAL_HTTP_CONNECTTIMEOUT", "10"},
            {"GDAL_HTTP_MAX_RETRY", "3"},
            {"GDAL_HTTP_RETRY_DELAY", "0.5"},
        };
        for (const auto& [key, value] : defaults) {
            if (!CPLGetConfigOption(key, nullptr)) CPLSetConfigOption(key, value);
        }
    });
}

// AWS_ENDPOINT_URL ("http://127.0.0.1:9000") as GDAL spells it: host[:port] in AWS_S3_ENDPOINT,
// AWS_HTTPS=NO for plain http, path-style addressing (what S3-compatible servers expect).
std::vector<std::pair<std::string, std::string>> endpoint_options(const std::string& url) {
    std::vector<std::pair<std::string, std::string>> out;
    std::string rest = url;
    bool https = true;
    if (rest.rfind("http://", 0) == 0) {
        https = false;
        rest = rest.substr(7);
    } else if (rest.rfind("https://", 0) == 0) {
        rest = rest.substr(8);
    }
    while (!rest.empty() && rest.back() == '/') rest.pop_back();
    out.emplace_back("AWS_S3_ENDPOINT", rest);
    out.emplace_back("AWS_HTTPS", https ? "YES" : "NO");
    out.emplace_back("AWS_VIRTUAL_HOSTING", "FALSE");
    return out;
}

// The names users know (AWS SDK, Google, Azure, obstore-style storage_options) -> GDAL's.
std::vector<std::pair<std::string, std::string>> gdal_options(const std::string& key,
                                                              const std::string& value) {
    std::string k;
    for (char c : key) k += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (k == "endpoint_url" || k == "aws_endpoint_url" || k == "aws_endpoint_url_s3" ||
        k == "endpoint" || k == "aws_endpoint") {
        return endpoint_options(value);
    }
    if (k == "access_key_id" || k == "key") return {{"AWS_ACCESS_KEY_ID", value}};
    if (k == "secret_access_key" || k == "secret") return {{"AWS_SECRET_ACCESS_KEY", value}};
    if (k == "session_token" || k == "token") return {{"AWS_SESSION_TOKEN", value}};
    if (k == "region" || k == "aws_default_region") return {{"AWS_REGION", value}};
    if (k == "profile") return {{"AWS_PROFILE", value}};
    if (k == "skip_signature" || k == "aws_skip_signature" || k == "anon" ||
        k == "no_sign_request") {
        const bool yes = value == "1" || upper(value) == "TRUE" || upper(value) == "YES";
        return {{"AWS_NO_SIGN_REQUEST", yes ? "YES" : "NO"},
                {"GS_NO_SIGN_REQUEST", yes ? "YES" : "NO"}};
    }
    if (k == "account_name" || k == "azure_storage_account_name")
        return {{"AZURE_STORAGE_ACCOUNT", value}};
    if (k == "account_key" || k == "azure_storage_account_key" || k == "azure_storage_key")
        return {{"AZURE_STORAGE_ACCESS_KEY", value}};
    if (k == "sas_token" || k == "azure_storage_sas_key")
        return {{"AZURE_STORAGE_SAS_TOKEN", value}};
    if (k == "connection_string") return {{"AZURE_STORAGE_CONNECTION_STRING", value}};
    if (k == "service_account" || k == "service_account_path" || k == "google_service_account" ||
        k == "google_service_account_path")
        return {{"GOOGLE_APPLICATION_CREDENTIALS", value}};
    if (k == "timeout") return {{"GDAL_HTTP_TIMEOUT", value}};
    if (k == "max_retries" || k == "retries") return {{"GDAL_HTTP_MAX_RETRY", value}};
    if (k == "retry_delay") return {{"GDAL_HTTP_RETRY_DELAY", value}};
    return {{upper(key), value}};
}

// Environment variables whose GDAL name differs, mapped on every open so a change of the
// environment (Python's os.environ) is seen. GDAL's own names, when set, win.
void map_environment() {
    static std::mutex mutex;
    std::lock_guard lock(mutex);
    auto env = [](const char* name) -> const char* {
        const char* v = std::getenv(name);
        return v && *v ? v : nullptr;
    };
    const char* endpoint = env("AWS_ENDPOINT_URL_S3");
    if (!endpoint) endpoint = env("AWS_ENDPOINT_URL");
    if (endpoint && !env("AWS_S3_ENDPOINT")) {
        for (const auto& [k, v] : endpoint_options(endpoint)) {
            if (k == "AWS_S3_ENDPOINT" || !env(k.c_str())) CPLSetConfigOption(k.c_str(), v.c_str());
        }
    }
    const std::pair<const char*, const char*> renames[] = {
        {"AZURE_STORAGE_ACCOUNT_NAME", "AZURE_STORAGE_ACCOUNT"},
        {"AZURE_STORAGE_ACCOUNT_KEY", "AZURE_STORAGE_ACCESS_KEY"},
        {"AZURE_STORAGE_KEY", "AZURE_STORAGE_ACCESS_KEY"},
        {"AZURE_STORAGE_SAS_KEY", "AZURE_STORAGE_SAS_TOKEN"},
        {"GOOGLE_SERVICE_ACCOUNT", "GOOGLE_APPLICATION_CREDENTIALS"},
        {"AWS_SHARED_CREDENTIALS_FILE", "CPL_AWS_CREDENTIALS_FILE"},
    };
    for (const auto& [from, to] : renames) {
        if (env(from) && !env(to)) CPLSetConfigOption(to, env(from));
    }
}

void prepare() {
    set_defaults_once();
    map_environment();
}

// "HTTP response code: 404", "HTTP error code: 403", "(HTTP 403)": the status, or 0.
int http_status(const std::string& message) {
    // GDAL: "HTTP response code on URL: 403" (the URL holds digits too), "HTTP error code: 404".
    static const std::regex coded(R"(code.*?:\s*([1-5][0-9][0-9])\b)", std::regex::icase);
    static const std::regex plain(R"(HTTP\s*([1-5][0-9][0-9])\b)", std::regex::icase);
    std::smatch m;
    if (std::regex_search(message, m, coded) || std::regex_search(message, m, plain))
        return std::stoi(m[1]);
    // Cloud stores answer a missing key in words, and GDAL passes on only the words: S3's
    // NoSuchKey, Azure's BlobNotFound, Google's "No such object".
    for (const char* not_found :
         {"The specified key does not exist", "NoSuchKey", "The specified blob does not exist",
          "BlobNotFound", "No such object"}) {
        if (message.find(not_found) != std::string::npos) return 404;
    }
    return 0;
}

// The timeout and retry settings a request ran with, for messages about a server that did not
// answer.
std::string wait_settings() {
    return std::string("GDAL_HTTP_TIMEOUT=") + CPLGetConfigOption("GDAL_HTTP_TIMEOUT", "30") +
           " s, GDAL_HTTP_MAX_RETRY=" + CPLGetConfigOption("GDAL_HTTP_MAX_RETRY", "0") + " retries";
}

// The settings that give credentials to the store `vsi` is on, as its users know them.
std::string credential_settings(const std::string& vsi) {
    auto on = [&](const char* prefix) { return vsi.rfind(prefix, 0) == 0; };
    if (on("/vsis3/"))
        return "AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_PROFILE, AWS_NO_SIGN_REQUEST=YES "
               "for a public bucket, or Python's storage_options";
    if (on("/vsigs/"))
        return "GOOGLE_APPLICATION_CREDENTIALS, GS_ACCESS_KEY_ID / GS_SECRET_ACCESS_KEY (HMAC "
               "keys), GS_NO_SIGN_REQUEST=YES for a public bucket, or Python's storage_options";
    if (on("/vsiaz/") || on("/vsiadls/"))
        return "AZURE_STORAGE_CONNECTION_STRING, AZURE_STORAGE_ACCOUNT with "
               "AZURE_STORAGE_ACCESS_KEY or AZURE_STORAGE_SAS_TOKEN, AZURE_NO_SIGN_REQUEST=YES "
               "for a public container, or Python's storage_options";
    return "AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_PROFILE, AWS_NO_SIGN_REQUEST=YES for "
           "a public bucket, GOOGLE_APPLICATION_CREDENTIALS, AZURE_STORAGE_*, or Python's "
           "storage_options";
}

std::string status_hint(int status, const std::string& message, const std::string& vsi) {
    // GDAL refuses to send an unsigned request to a cloud store: no request was made at all.
    if (status == 0 && (message.find("configuration options not defined") != std::string::npos ||
                        message.find("No valid") != std::string::npos)) {
        return "no credentials found (set " + credential_settings(vsi) + ")";
    }
    switch (status) {
        case 404:
            return "HTTP 404 (not found): check the URL";
        case 403:
        case 401:
            return "HTTP " + std::to_string(status) + " (access denied): check the credentials (" +
                   credential_settings(vsi) + ")";
        case 412:
            return "HTTP 412 (precondition failed): the file changed since it was opened";
        case 416:
            return "HTTP 416 (range not satisfiable): the file is shorter than expected (it "
                   "changed or was truncated)";
        default:
            break;
    }
    if (status >= 500) return "HTTP " + std::to_string(status) + " (server error, after retries)";
    std::string lower = message;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    // curl refuses a URL it cannot parse (a space, a bad port) at once, with code 0 too.
    if ((status == 0 && vsi.find_first_of(" \t\r\n") != std::string::npos) ||
        lower.find("bad/illegal format") != std::string::npos ||
        lower.find("malformed") != std::string::npos ||
        lower.find("url rejected") != std::string::npos) {
        return "the URL is malformed (percent-encode spaces and other special characters)";
    }
    // After retries GDAL's last words are "HTTP error code: 0 - URL. Retrying again in N secs":
    // no HTTP answer at all.
    if (lower.find("timeout") != std::string::npos ||
        lower.find("timed out") != std::string::npos ||
        lower.find("code: 0") != std::string::npos) {
        return "the request timed out or the server did not answer (" + wait_settings() + ")";
    }
    if (lower.find("range") != std::string::npos && lower.find("support") != std::string::npos)
        return "the server does not support HTTP range requests, which remote reading needs";
    if (status > 0) return "HTTP " + std::to_string(status);
    return {};
}

// The IoError of a failed request: what was attempted, the URL, the status and GDAL's words.
[[noreturn]] void remote_failure(const Location& location, const std::string& action,
                                 std::string given = {}) {
    std::string message = given.empty() ? std::string(CPLGetLastErrorMsg()) : given;
    const std::string vsi_message = VSIGetLastErrorMsg();
    if (message.empty()) message = vsi_message;
    const int status = http_status(message.empty() ? vsi_message : message);
    std::string hint = status_hint(status, message, location.vsi);
    if (hint.empty() && status == 0 && message.empty()) {
        hint =
            "no answer or the file does not exist (HTTP 404, a network failure, or a server "
            "that stopped sending: " +
            wait_settings() + ")";
    }
    std::string text = location.text + ": " + action + " failed";
    if (!hint.empty()) text += ": " + hint;
    if (!message.empty() && message != hint) text += " [" + message + "]";
    throw IoError(text);
}

std::string header_value(CSLConstList headers, const char* name) {
    for (CSLConstList h = headers; h && *h; ++h) {
        const char* line = *h;
        const size_t n = std::strlen(name);
        if (EQUALN(line, name, n) && (line[n] == '=' || line[n] == ':')) {
            std::string v(line + n + 1);
            while (!v.empty() && std::isspace(static_cast<unsigned char>(v.front()))) v.erase(0, 1);
            while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.pop_back();
            return v;
        }
    }
    return {};
}

// The headers of the last response of a GET that followed redirects. CPLHTTPFetch collects the
// headers of every response in order (a 302's Content-Length, then the final 200's), and each
// redirect names where it goes in its Location header: the final response's headers are those
// after the last Location.
CSLConstList final_response_headers(CSLConstList headers) {
    CSLConstList after = headers;
    for (CSLConstList h = headers; h && *h; ++h) {
        if (EQUALN(*h, "Location", 8) && ((*h)[8] == '=' || (*h)[8] == ':')) after = h + 1;
    }
    return after;
}

// One HEAD: the file's size and validators. GDAL keeps the size, so opening it next costs
// nothing more.
RemoteIdentity head(const Location& location) {
    QuietErrors quiet;
    char** headers = VSIGetFileMetadata(location.vsi.c_str(), "HEADERS", nullptr);
    const bool headers_seen = headers != nullptr;
    RemoteIdentity id;
    std::string ranges;
    if (headers) {
        id.etag = header_value(headers, "ETag");
        // GDAL hands the ETag over without its quotes; If-Match needs them.
        if (!id.etag.empty() && id.etag.front() != '"' && id.etag.rfind("W/", 0) != 0)
            id.etag = '"' + id.etag + '"';
        id.last_modified = header_value(headers, "Last-Modified");
        ranges = header_value(headers, "Accept-Ranges");
        CSLDestroy(headers);
    }
    VSIStatBufL st;
    if (VSIStatExL(location.vsi.c_str(), &st, VSI_STAT_SIZE_FLAG | VSI_STAT_SET_ERROR_FLAG) != 0)
        remote_failure(location, "opening (HEAD)");
    if (VSI_ISDIR(st.st_mode)) {
        throw IoError(location.text + ": is a directory listing, not a file");
    }
    id.size = static_cast<uint64_t>(st.st_size);
    // A plain web server that ignores Range answers every read with the whole file: GDAL would
    // download it again for each piece. Cloud stores always support ranges; web servers say so.
    if (headers_seen && is_http_vsi(location.vsi) && id.size > 0 && upper(ranges) != "BYTES") {
        throw IoError(location.text +
                      ": the server does not support HTTP range requests (its answer has no "
                      "'Accept-Ranges: bytes'), which reading a remote dataset needs; serve it "
                      "from a server that does (nginx, Apache, S3, GCS, Azure) or download it");
    }
    return id;
}

VSILFILE* open_handle(const Location& location) {
    QuietErrors quiet;
    VSILFILE* f = VSIFOpenExL(location.vsi.c_str(), "rb", TRUE);
    if (!f) remote_failure(location, "opening");
    return f;
}

void read_handle(VSILFILE* f, const Location& location, uint64_t offset, void* buf, size_t n,
                 const std::string& what) {
    QuietErrors quiet;
    if (VSIFSeekL(f, offset, SEEK_SET) != 0 || VSIFReadL(buf, 1, n, f) != n) {
        remote_failure(location, "reading " + what + " (" + byte_range_text(offset, n) + ")");
    }
}

}  // namespace

RemoteSource::RemoteSource(Location location, RemoteIdentity identity, void* handle)
    : location_(std::move(location)), identity_(std::move(identity)), handle_(handle) {}

RemoteSource::~RemoteSource() {
    if (handle_) VSIFCloseL(static_cast<VSILFILE*>(handle_));
}

std::shared_ptr<RemoteSource> RemoteSource::from_bytes(const Location& location,
                                                       RemoteIdentity identity, std::string bytes) {
    auto src =
        std::shared_ptr<RemoteSource>(new RemoteSource(location, std::move(identity), nullptr));
    src->held_.emplace_back(0, std::move(bytes));
    return src;
}

std::shared_ptr<RemoteSource> RemoteSource::open(const Location& location) {
    prepare();
    RemoteIdentity id;
    VSILFILE* f = nullptr;
    process::run_off_forking_thread([&] {
        id = head(location);
        f = open_handle(location);
    });
    return std::shared_ptr<RemoteSource>(new RemoteSource(location, std::move(id), f));
}

bool RemoteSource::from_held(uint64_t offset, void* buf, size_t n) const {
    for (const auto& [start, bytes] : held_) {
        if (offset >= start && offset - start <= bytes.size() &&
            bytes.size() - (offset - start) >= n) {
            std::memcpy(buf, bytes.data() + (offset - start), n);
            return true;
        }
    }
    return false;
}

void RemoteSource::fetch(uint64_t offset, void* buf, size_t n, const std::string& what) const {
    if (!handle_) {  // from_bytes: every byte is held, so this is a range outside the file
        throw IoError(location_.text + ": " + what + " is not in the fetched copy");
    }
    process::run_off_forking_thread([&] { fetch_here(offset, buf, n, what); });
}

void RemoteSource::fetch_here(uint64_t offset, void* buf, size_t n, const std::string& what) const {
    // Every read asks for the version the HEAD saw: if the file changed since, the server
    // answers 412 instead of mixing bytes of two versions. Only for plain HTTP(S): the cloud
    // signatures (Azure's in particular) cover the headers GDAL knows about. A weak ETag (W/"...")
    // never matches under If-Match (RFC 9110 §13.1.1: the comparison is strong), so every read
    // would fail with 412: such a file is read without the condition.
    const bool conditional =
        !identity_.etag.empty() && identity_.etag.rfind("W/", 0) != 0 && is_http_vsi(location_.vsi);
    const std::string previous = CPLGetThreadLocalConfigOption("GDAL_HTTP_HEADERS", "");
    if (conditional) {
        // GDAL splits the option at commas and strips double quotes unless the header is
        // quoted as a whole with its inner quotes escaped.
        std::string header = "\"If-Match: ";
        for (char c : identity_.etag) header += c == '"' ? std::string("\\\"") : std::string(1, c);
        header += '"';
        CPLSetThreadLocalConfigOption("GDAL_HTTP_HEADERS", header.c_str());
    }
    auto restore = [&] {
        if (conditional)
            CPLSetThreadLocalConfigOption("GDAL_HTTP_HEADERS",
                                          previous.empty() ? nullptr : previous.c_str());
    };
    try {
        read_handle(static_cast<VSILFILE*>(handle_), location_, offset, buf, n, what);
    } catch (const IoError&) {
        restore();
        // GDAL does not report the status of a failed range read (412 among others): a fresh
        // HEAD tells a changed file from a network failure.
        RemoteIdentity now;
        try {
            VSICurlPartialClearCache(location_.vsi.c_str());
            now = head(location_);
        } catch (const Error&) {
            throw;
        }
        if (!(now == identity_)) {
            throw IoError(location_.text + ": the file changed since it was opened (size " +
                          std::to_string(identity_.size) + " -> " + std::to_string(now.size) +
                          ", ETag " + identity_.etag + " -> " + now.etag + ", Last-Modified " +
                          identity_.last_modified + " -> " + now.last_modified +
                          ") while reading " + what + "; load the dataset again");
        }
        throw;
    }
    restore();
}

void RemoteSource::read_at(uint64_t offset, void* buf, size_t n, const std::string& what) const {
    check_range(offset, n, what);
    if (n == 0) return;
    std::lock_guard lock(mutex_);
    if (from_held(offset, buf, n)) return;
    fetch(offset, buf, n, what);
}

void RemoteSource::prefetch(uint64_t offset, uint64_t n, const std::string& what) const {
    check_range(offset, n, what);
    std::lock_guard lock(mutex_);
    for (const auto& [start, bytes] : held_)
        if (offset >= start && offset - start + n <= bytes.size()) return;
    std::string bytes(static_cast<size_t>(n), '\0');
    fetch(offset, bytes.data(), bytes.size(), what);
    held_.emplace_back(offset, std::move(bytes));
}

void RemoteSource::drop_prefetched() const {
    std::lock_guard lock(mutex_);
    if (handle_) held_.clear();  // from_bytes sources have nothing else to read from
}

void RemoteSource::hold(uint64_t offset, std::string bytes) const {
    std::lock_guard lock(mutex_);
    held_.emplace_back(offset, std::move(bytes));
}

std::vector<std::pair<uint64_t, std::string>> RemoteSource::held() const {
    std::lock_guard lock(mutex_);
    return held_;
}

bool is_plain_http(const Location& location) {
    return location.vsi.rfind("/vsicurl/http", 0) == 0;
}

WholeFile http_get_whole(const Location& location, const RemoteIdentity* known) {
    prepare();
    const std::string url = location.vsi.substr(std::strlen("/vsicurl/"));
    CPLStringList options;
    // GDAL 3.6's range reads find a private CA bundle through SSL_CERT_FILE, its plain GETs do
    // not: it is passed on explicitly so both read the same servers.
    for (const char* name : {"GDAL_HTTP_CAINFO", "SSL_CERT_FILE", "CURL_CA_BUNDLE"}) {
        const char* ca = std::string_view(name) == "GDAL_HTTP_CAINFO"
                             ? CPLGetConfigOption(name, nullptr)
                             : std::getenv(name);
        if (ca && *ca) {
            options.AddNameValue("CAINFO", ca);
            break;
        }
    }
    // One kept-alive connection per server, process and thread (GDAL's persistent sessions): a
    // FOLDER's files then cost one TLS handshake in all, as range reads through /vsicurl/ do.
    // The process id is in the key because a forked child (a DataLoader worker) has the same
    // thread id as its parent: without it, parent and children would share one socket.
    const size_t host_end = url.find('/', url.find("://") + 3);
    std::ostringstream session;
    session << "tacocore:" << url.substr(0, host_end) << '#' << ::getpid() << '#'
            << std::this_thread::get_id();
    options.AddNameValue("PERSISTENT", session.str().c_str());
    if (known && !known->etag.empty()) {
        options.AddNameValue("HEADERS", ("If-None-Match: " + known->etag).c_str());
    } else if (known && !known->last_modified.empty()) {
        options.AddNameValue("HEADERS", ("If-Modified-Since: " + known->last_modified).c_str());
    }
    QuietErrors quiet;
    CPLHTTPResult* r = CPLHTTPFetch(url.c_str(), options.List());
    if (!r) remote_failure(location, "GET");
    struct Free {
        void operator()(CPLHTTPResult* p) const { CPLHTTPDestroyResult(p); }
    };
    std::unique_ptr<CPLHTTPResult, Free> result(r);
    if (r->nStatus != 0 || (r->pszErrBuf && *r->pszErrBuf)) {
        remote_failure(location, "GET", r->pszErrBuf ? r->pszErrBuf : "");
    }
    WholeFile out;
    const CSLConstList headers = final_response_headers(r->papszHeaders);
    out.identity.etag = header_value(headers, "ETag");
    out.identity.last_modified = header_value(headers, "Last-Modified");
    // 304 Not Modified: no body; what the cache holds is current.
    if (known && r->nDataLen == 0 && known->size > 0) {
        out.identity = *known;
        out.not_modified = true;
        return out;
    }
    out.bytes.assign(reinterpret_cast<const char*>(r->pabyData),
                     static_cast<size_t>(std::max(r->nDataLen, 0)));
    out.identity.size = out.bytes.size();
    const std::string length = header_value(headers, "Content-Length");
    if (!length.empty() && std::strtoull(length.c_str(), nullptr, 10) != out.identity.size) {
        throw IoError(location.text + ": GET returned " + std::to_string(out.identity.size) +
                      " bytes but announced " + length + " (truncated body)");
    }
    return out;
}

void set_remote_options(const std::string& vsi_prefix,
                        const std::map<std::string, std::string>& options) {
    prepare();
    for (const auto& [key, value] : options) {
        for (const auto& [k, v] : gdal_options(key, value)) {
            VSISetPathSpecificOption(vsi_prefix.c_str(), k.c_str(), v.c_str());
        }
    }
}

void clear_remote_state() {
    VSICurlClearCache();
}

}  // namespace taco::io
