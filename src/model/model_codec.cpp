// Binary form of Sample/Tortilla trees (model_codec.hpp). Layout, all integers little-endian:
//   tortilla := magic "TACOTRT1" | body   body := u8 strict, varint count, sample*
//   sample   := u8 kind | string id | payload | varint nfields, (string name, value)*
//     kind 0 FILE on disk (payload: string path), 1 FILE in memory (string bytes),
//          2 FOLDER (body of its children), 3 padding (no payload)
//   value    := type | u8 is_null | scalar or (varint n, value*) for lists, structs and maps
//   type     := u8 TypeId | element / fields / precision+scale as the id needs
// Every value carries its full type so that typed nulls, int32, float32, decimals and nested
// types come back exactly as they left. Decoding checks every length against what remains.
#include "model/model_codec.hpp"

#include <cstdint>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

#include "taco/errors.hpp"

namespace taco::model {
namespace {

constexpr std::string_view kTortillaMagic = "TACOTRT1";
constexpr std::string_view kSampleMagic = "TACOSMP1";
// FOLDERs inside FOLDERs: far beyond any real dataset, low enough to keep recursion safe.
constexpr int kMaxTreeDepth = 256;

enum class Kind : uint8_t { DiskFile = 0, MemoryFile = 1, Folder = 2, Padding = 3 };

class Writer {
  public:
    void byte(uint8_t b) { out_.push_back(static_cast<char>(b)); }
    void varint(uint64_t v) {
        while (v >= 0x80) {
            byte(static_cast<uint8_t>(v | 0x80));
            v >>= 7;
        }
        byte(static_cast<uint8_t>(v));
    }
    void fixed64(uint64_t v) {
        for (int i = 0; i < 8; ++i) byte(static_cast<uint8_t>(v >> (8 * i)));
    }
    void text(std::string_view s) {
        varint(s.size());
        out_.append(s);
    }
    void raw(std::string_view s) { out_.append(s); }

    void type(const DataType& t) {
        byte(static_cast<uint8_t>(t.id()));
        switch (t.id()) {
            case TypeId::List:
                type(t.element());
                break;
            case TypeId::FixedList:
                varint(static_cast<uint64_t>(t.size()));
                type(t.element());
                break;
            case TypeId::Decimal:
                byte(static_cast<uint8_t>(t.size()));
                byte(static_cast<uint8_t>(t.scale()));
                break;
            case TypeId::Struct:
                varint(t.field_count());
                for (size_t i = 0; i < t.field_count(); ++i) {
                    text(t.field_name(i));
                    type(t.field_type(i));
                }
                break;
            case TypeId::Map:
                type(t.field_type(0));
                type(t.field_type(1));
                break;
            default:
                break;
        }
    }

    void value(const Value& v) {
        type(v.type());
        byte(v.is_null() ? 1 : 0);
        if (v.is_null()) return;
        switch (v.type().id()) {
            case TypeId::Null:
                break;
            case TypeId::Bool:
                byte(v.as_bool() ? 1 : 0);
                break;
            case TypeId::Int32:
            case TypeId::Int64:
            case TypeId::Timestamp:
            case TypeId::TimestampTz:
            case TypeId::Date:
                fixed64(static_cast<uint64_t>(v.as_int()));
                break;
            case TypeId::Float32:
            case TypeId::Float64: {
                const double d = v.as_double();
                uint64_t bits;
                std::memcpy(&bits, &d, sizeof bits);
                fixed64(bits);
                break;
            }
            case TypeId::String:
            case TypeId::Binary:
            case TypeId::Decimal:
                text(v.as_string());
                break;
            case TypeId::List:
            case TypeId::FixedList:
            case TypeId::Struct:
            case TypeId::Map:
                varint(v.as_list().size());
                for (const Value& item : v.as_list()) value(item);
                break;
        }
    }

    void sample(const Sample& s) {
        if (s.is_padding()) {
            byte(static_cast<uint8_t>(Kind::Padding));
            text(s.id());
        } else if (s.is_folder()) {
            byte(static_cast<uint8_t>(Kind::Folder));
            text(s.id());
            tortilla(s.children());
        } else if (s.memory() || s.path().empty()) {  // empty bytes hold no buffer
            byte(static_cast<uint8_t>(Kind::MemoryFile));
            text(s.id());
            text(s.memory() ? *s.memory() : std::string());
        } else {
            byte(static_cast<uint8_t>(Kind::DiskFile));
            text(s.id());
            text(s.path().string());
        }
        varint(s.fields().size());
        for (const Field& f : s.fields()) {
            text(f.name);
            value(f.value);
        }
    }

    void tortilla(const Tortilla& t) {
        // Strict when every sample's fields are exactly the schema (names, order, types): then
        // a strict rebuild keeps them as they are. Otherwise the tortilla was aligned
        // (strict_schema=False unified some types) and is rebuilt the same way.
        bool strict = true;
        for (const Sample& s : t.samples()) {
            const auto& f = s.fields();
            if (f.size() != t.schema().size()) {
                strict = false;
                break;
            }
            for (size_t i = 0; strict && i < f.size(); ++i)
                strict = f[i].name == t.schema()[i].name && f[i].value.type() == t.schema()[i].type;
            if (!strict) break;
        }
        byte(strict ? 1 : 0);
        varint(t.size());
        for (const Sample& s : t.samples()) sample(s);
    }

    std::string take() { return std::move(out_); }

  private:
    std::string out_;
};

class Reader {
  public:
    Reader(std::string_view in, const std::string& what) : in_(in), what_(what) {}

    [[noreturn]] void fail(const std::string& why) const {
        throw FormatError(what_ + ": not a valid encoded sample tree (" + why + " at byte " +
                          std::to_string(pos_) + ")");
    }
    void expect_magic(std::string_view magic) {
        if (in_.substr(0, magic.size()) != magic)
            fail("expected the marker '" + std::string(magic) + "'");
        pos_ = magic.size();
    }
    void expect_end() const {
        if (pos_ != in_.size()) fail("unexpected trailing bytes");
    }
    uint8_t byte() {
        if (pos_ >= in_.size()) fail("truncated");
        return static_cast<uint8_t>(in_[pos_++]);
    }
    uint64_t varint() {
        uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            const uint8_t b = byte();
            v |= static_cast<uint64_t>(b & 0x7f) << shift;
            if (!(b & 0x80)) return v;
        }
        fail("malformed length");
    }
    // A count of items each taking at least one byte: never more than what remains.
    size_t count() {
        const uint64_t n = varint();
        if (n > in_.size() - pos_) fail("count larger than the remaining bytes");
        return static_cast<size_t>(n);
    }
    uint64_t fixed64() {
        uint64_t v = 0;
        for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(byte()) << (8 * i);
        return v;
    }
    std::string text() {
        const size_t n = count();
        std::string s(in_.substr(pos_, n));
        pos_ += n;
        return s;
    }

    DataType type(int depth = 0) {
        if (depth > kMaxNestingDepth) fail("type nested too deeply");
        const uint8_t id = byte();
        switch (static_cast<TypeId>(id)) {
            case TypeId::Null:
                return DataType::null();
            case TypeId::Bool:
                return DataType::boolean();
            case TypeId::Int32:
                return DataType::int32();
            case TypeId::Int64:
                return DataType::int64();
            case TypeId::Float32:
                return DataType::float32();
            case TypeId::Float64:
                return DataType::float64();
            case TypeId::String:
                return DataType::string();
            case TypeId::Binary:
                return DataType::binary();
            case TypeId::Timestamp:
                return DataType::timestamp();
            case TypeId::Date:
                return DataType::date();
            case TypeId::TimestampTz:
                return DataType::timestamp_tz();
            case TypeId::List:
                return DataType::list(type(depth + 1));
            case TypeId::FixedList: {
                const uint64_t size = varint();
                if (size < 1 || size > (1u << 30)) fail("bad fixed-size list length");
                return DataType::fixed_list(type(depth + 1), static_cast<int>(size));
            }
            case TypeId::Decimal: {
                const int precision = byte();
                const int scale = byte();
                return DataType::decimal(precision, scale);
            }
            case TypeId::Struct: {
                std::vector<std::pair<std::string, DataType>> fields(count());
                for (auto& [name, t] : fields) {
                    name = text();
                    t = type(depth + 1);
                }
                return DataType::structure(fields);
            }
            case TypeId::Map: {
                DataType key = type(depth + 1);
                return DataType::map(key, type(depth + 1));
            }
        }
        fail("unknown type id " + std::to_string(id));
    }

    Value value(int depth = 0) {
        if (depth > kMaxNestingDepth) fail("value nested too deeply");
        const DataType t = type();
        const uint8_t null = byte();
        if (null) return Value::null(t);
        switch (t.id()) {
            case TypeId::Null:
                return Value();
            case TypeId::Bool:
                return Value(byte() != 0);
            case TypeId::Int32:
                return Value::int32(static_cast<int32_t>(fixed64()));
            case TypeId::Int64:
                return Value(static_cast<long long>(fixed64()));
            case TypeId::Timestamp:
                return Value::timestamp(static_cast<int64_t>(fixed64()));
            case TypeId::TimestampTz:
                return Value::timestamp_tz(static_cast<int64_t>(fixed64()));
            case TypeId::Date:
                return Value::date(static_cast<int32_t>(fixed64()));
            case TypeId::Float32:
            case TypeId::Float64: {
                const uint64_t bits = fixed64();
                double d;
                std::memcpy(&d, &bits, sizeof d);
                return t.id() == TypeId::Float32 ? Value(static_cast<float>(d)) : Value(d);
            }
            case TypeId::String:
                return Value(text());
            case TypeId::Binary:
                return Value::binary(text());
            case TypeId::Decimal:
                return Value::decimal(t, text());
            case TypeId::List:
            case TypeId::FixedList:
            case TypeId::Struct:
            case TypeId::Map: {
                Value::List items(count());
                for (Value& item : items) item = value(depth + 1);
                if (t.id() == TypeId::List) return Value::list(t.element(), std::move(items));
                if (t.id() == TypeId::FixedList) return Value::fixed_list(t, std::move(items));
                if (t.id() == TypeId::Struct) return Value::structure(t, std::move(items));
                std::vector<std::pair<Value, Value>> entries;
                entries.reserve(items.size());
                for (Value& entry : items) {
                    if (entry.type().id() != TypeId::Struct || entry.as_list().size() != 2)
                        fail("map entry is not a {key, value} struct");
                    entries.emplace_back(entry.as_list()[0], entry.as_list()[1]);
                }
                return Value::map(t, std::move(entries));
            }
        }
        fail("unknown value type");
    }

    Sample sample(int depth) {
        const uint8_t kind = byte();
        std::string id = text();
        std::optional<Sample> s;
        switch (static_cast<Kind>(kind)) {
            case Kind::DiskFile:
                s = Sample::file(std::move(id), text());
                break;
            case Kind::MemoryFile:
                s = Sample::bytes(std::move(id), text());
                break;
            case Kind::Folder:
                s = Sample::folder(std::move(id), tortilla(depth + 1));
                break;
            case Kind::Padding:
                return padding(id);
            default:
                fail("unknown sample kind " + std::to_string(kind));
        }
        const size_t n = count();
        for (size_t i = 0; i < n; ++i) {
            std::string name = text();
            s->set(std::move(name), value());
        }
        return std::move(*s);
    }

    Tortilla tortilla(int depth) {
        if (depth > kMaxTreeDepth) fail("FOLDERs nested too deeply");
        const bool strict = byte() != 0;
        std::vector<Sample> samples;
        const size_t n = count();
        samples.reserve(n);
        for (size_t i = 0; i < n; ++i) samples.push_back(sample(depth));
        TortillaOptions options;
        options.strict_schema = strict;
        return Tortilla(std::move(samples), options);
    }

  private:
    // A padding sample is rebuilt from its position in the padding run and its typed nulls.
    Sample padding(const std::string& id) {
        constexpr std::string_view prefix = "__TACOPAD__";
        size_t index = 0;
        if (id.rfind(prefix, 0) != 0 || id.size() == prefix.size()) fail("bad padding id");
        for (char c : id.substr(prefix.size())) {
            if (c < '0' || c > '9') fail("bad padding id");
            index = index * 10 + static_cast<size_t>(c - '0');
        }
        std::vector<ColumnType> schema(count());
        for (auto& col : schema) {
            col.name = text();
            const Value v = value();
            col.type = v.type();
        }
        return Sample::padding(index, schema);
    }

    std::string_view in_;
    const std::string& what_;
    size_t pos_ = 0;
};

}  // namespace

std::string encode_sample(const Sample& sample) {
    Writer w;
    w.raw(kSampleMagic);
    w.sample(sample);
    return w.take();
}

Sample decode_sample(std::string_view bytes, const std::string& what) {
    Reader r(bytes, what);
    r.expect_magic(kSampleMagic);
    Sample s = r.sample(0);
    r.expect_end();
    return s;
}

std::string encode_tortilla(const Tortilla& tortilla) {
    Writer w;
    w.raw(kTortillaMagic);
    w.tortilla(tortilla);
    return w.take();
}

Tortilla decode_tortilla(std::string_view bytes, const std::string& what) {
    Reader r(bytes, what);
    r.expect_magic(kTortillaMagic);
    Tortilla t = r.tortilla(0);
    r.expect_end();
    return t;
}

}  // namespace taco::model
