// Sample construction and the id / extension-key rules (spec §5.5.1, FORMAT.md §8.1).
#include "taco/sample.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <string_view>
#include <system_error>

#include "model/column_names.hpp"
#include "model/utf8.hpp"
#include "taco/errors.hpp"
#include "taco/tortilla.hpp"

namespace taco {

const char* to_string(SampleType type) {
    return type == SampleType::File ? "FILE" : "FOLDER";
}

namespace {

// Well-formed UTF-8: shortest forms only, no surrogates, nothing above U+10FFFF.

// Text values end up in Parquet STRING columns, which must hold UTF-8 (readers reject the file).
bool text_is_valid_utf8(const Value& v) {
    if (v.is_null()) return true;
    if (v.type().id() == TypeId::String) return model::is_valid_utf8(v.as_string());
    const TypeId t = v.type().id();
    if (t == TypeId::List || t == TypeId::FixedList || t == TypeId::Struct || t == TypeId::Map) {
        for (const auto& item : v.as_list())
            if (!text_is_valid_utf8(item)) return false;
    }
    return true;
}

}  // namespace

void validate_sample_id(const std::string& id) {
    auto bad = [&](const std::string& why) {
        std::string shown;  // a raw NUL would cut the message short (what() is a C string)
        for (char c : id) shown += c == '\0' ? std::string("\\0") : std::string(1, c);
        throw SchemaError("invalid sample id '" + shown + "': " + why);
    };
    if (id.empty()) bad("it is empty (an id names a file inside the container)");
    if (!model::is_valid_utf8(id))
        bad("it is not valid UTF-8 (rename the file or give a UTF-8 id)");
    if (id == "." || id == "..") bad("'.' and '..' are not allowed as ids");
    for (char c : id) {
        if (c == '/' || c == '\\') bad("it contains a slash ('/' and '\\' are not allowed)");
        if (c == ':') bad("it contains ':' (not allowed)");
        if (c == '\0') bad("it contains a NUL byte");
    }
    if (id.rfind("__", 0) == 0) bad("ids starting with '__' are reserved for padding");
}

void validate_extension_key(const std::string& key) {
    auto bad = [&](const std::string& why) {
        throw SchemaError("invalid metadata key '" + key + "': " + why);
    };
    if (key == "id" || key == "type" || key == "path") bad("it is a reserved core field");
    if (!model::is_valid_utf8(key)) bad("it is not valid UTF-8");
    if (is_internal_column(key)) bad("the 'internal:' namespace is reserved for tacocore");
    // ^[A-Za-z0-9_]+(:\w+)?$ — \w also admits non-ASCII word characters, as Python's re does.
    size_t colon = key.find(':');
    auto ascii_word = [](unsigned char c) { return std::isalnum(c) || c == '_'; };
    std::string_view head = std::string_view(key).substr(0, colon);
    if (head.empty()) bad("expected letters, digits or '_' before the ':'");
    for (unsigned char c : head)
        if (!ascii_word(c)) bad("expected only letters, digits, '_' and at most one ':'");
    if (colon == std::string::npos) return;
    std::string_view tail = std::string_view(key).substr(colon + 1);
    if (tail.empty()) bad("expected a name after the ':'");
    for (unsigned char c : tail)
        if (!(ascii_word(c) || c >= 0x80))
            bad("expected only letters, digits, '_' and at most one ':'");
}

const std::filesystem::path& Sample::no_path() {
    static const std::filesystem::path empty;
    return empty;
}

Sample Sample::file(std::string id, std::filesystem::path path) {
    validate_sample_id(id);
    // One stat for existence, type and size: millions of files make every syscall count.
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) {
        throw IoError("sample '" + id + "': file not found: " + path.string());
    }
    if (!S_ISREG(st.st_mode)) {
        throw IoError("sample '" + id + "': not a regular file: " + path.string());
    }
    Sample s;
    s.id_ = std::move(id);
    s.type_ = SampleType::File;
    if (!path.is_absolute()) path = std::filesystem::absolute(path);
    s.path_ = std::make_shared<const std::filesystem::path>(std::move(path));
    s.size_ = static_cast<uint64_t>(st.st_size);
    return s;
}

Sample Sample::bytes(std::string id, std::string data) {
    validate_sample_id(id);
    Sample s;
    s.id_ = std::move(id);
    s.type_ = SampleType::File;
    s.size_ = data.size();
    if (!data.empty()) s.bytes_ = std::make_shared<const std::string>(std::move(data));
    return s;
}

Sample Sample::folder(std::string id, Tortilla children) {
    validate_sample_id(id);
    // Only a moved-from Tortilla is empty: its constructor refuses no samples.
    if (children.size() == 0) {
        throw SchemaError("FOLDER '" + id +
                          "': its Tortilla has no samples (it was moved from); a FOLDER holds at "
                          "least one sample");
    }
    Sample s;
    s.id_ = std::move(id);
    s.type_ = SampleType::Folder;
    s.size_ = children.total_size();
    s.children_ = std::make_shared<const Tortilla>(std::move(children));
    return s;
}

Sample Sample::padding(size_t index, const std::vector<ColumnType>& schema) {
    Sample s;
    s.id_ = "__TACOPAD__" + std::to_string(index);
    s.type_ = SampleType::File;
    s.padding_ = true;
    s.fields_.reserve(schema.size());
    for (const auto& col : schema) s.fields_.push_back({col.name, Value::null(col.type)});
    return s;
}

const Tortilla& Sample::children() const {
    if (!children_) throw SchemaError("sample '" + id_ + "' is a FILE and has no children");
    return *children_;
}

void Sample::check_field(const std::string& key, const Value& value) const {
    validate_extension_key(key);
    if (!text_is_valid_utf8(value)) {
        throw SchemaError("sample '" + id_ + "' field '" + key +
                          "': text is not valid UTF-8 (store raw bytes as binary)");
    }
}

Sample& Sample::set(std::string key, Value value) {
    check_field(key, value);
    for (auto& f : fields_) {
        if (f.name == key) {
            f.value = std::move(value);
            return *this;
        }
    }
    // Samples carry a handful of fields and there can be millions of samples: grow by two
    // instead of doubling, so five fields take six slots rather than eight.
    if (fields_.size() == fields_.capacity() && fields_.size() < 16)
        fields_.reserve(fields_.size() + 2);
    fields_.push_back({std::move(key), std::move(value)});
    return *this;
}

Sample& Sample::extend_with(const std::vector<Field>& fields) {
    for (const auto& f : fields) set(f.name, f.value);
    return *this;
}

Sample& Sample::extend_with(std::vector<Field>&& fields) {
    auto repeats_a_name = [&] {
        for (size_t i = 0; i < fields.size(); ++i)
            for (size_t j = 0; j < i; ++j)
                if (fields[i].name == fields[j].name) return true;
        return false;
    };
    if (!fields_.empty() || fields.size() > 16 || repeats_a_name()) {
        for (auto& f : fields) set(std::move(f.name), std::move(f.value));
        return *this;
    }
    for (const auto& f : fields) check_field(f.name, f.value);  // all before anything changes
    fields_ = std::move(fields);
    return *this;
}

Value Sample::pop(const std::string& key) {
    if (key == "id" || key == "type" || key == "path") {
        throw SchemaError("cannot remove core field '" + key + "' from sample '" + id_ + "'");
    }
    auto it =
        std::find_if(fields_.begin(), fields_.end(), [&](const Field& f) { return f.name == key; });
    if (it == fields_.end())
        throw std::out_of_range("sample '" + id_ + "' has no field '" + key + "'");
    Value v = std::move(it->value);
    fields_.erase(it);
    return v;
}

const Value* Sample::get(const std::string& key) const {
    for (const auto& f : fields_)
        if (f.name == key) return &f.value;
    return nullptr;
}

}  // namespace taco
