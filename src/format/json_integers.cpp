// Integers a COLLECTION document given to `create` cannot keep exactly (collection_parse.hpp).
#include <cstddef>
#include <string>
#include <vector>

#include "format/collection_parse.hpp"
#include "model/shorten.hpp"
#include "taco/errors.hpp"

namespace taco::format {
namespace {

// A SAX pass that stops at the first integer literal nlohmann reads as a double (it keeps
// integers exactly only within int64/uint64), with the path of keys and positions to it.
struct InexactIntegerFinder : nlohmann::json_sax<OrderedJson> {
    struct Step {
        bool in_array = false;
        size_t index = 0;
        std::string key;
    };
    std::vector<Step> path;
    std::string literal;
    std::string where;

    void advance() {  // a value was read: the next one of an array is the next position
        if (!path.empty() && path.back().in_array) ++path.back().index;
    }
    std::string here() const {
        std::string out;
        for (const Step& s : path) {
            if (s.in_array) {
                out += "[" + std::to_string(s.index) + "]";
            } else {
                out += (out.empty() ? "" : ".") + s.key;
            }
        }
        return out;
    }

    bool null() override { return advance(), true; }
    bool boolean(bool) override { return advance(), true; }
    bool number_integer(number_integer_t) override { return advance(), true; }
    bool number_unsigned(number_unsigned_t) override { return advance(), true; }
    bool number_float(number_float_t, const string_t& text) override {
        if (text.find_first_of(".eE") == std::string::npos) {
            literal = text;
            where = here();
            return false;  // stop: the first one is named
        }
        return advance(), true;
    }
    bool string(string_t&) override { return advance(), true; }
    bool binary(binary_t&) override { return advance(), true; }
    bool start_object(std::size_t) override { return path.push_back({}), true; }
    bool key(string_t& k) override { return path.back().key = k, true; }
    bool end_object() override { return path.pop_back(), advance(), true; }
    bool start_array(std::size_t) override { return path.push_back({true, 0, {}}), true; }
    bool end_array() override { return path.pop_back(), advance(), true; }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
        return false;  // parse_json_document reports malformed text
    }
};

}  // namespace

void refuse_inexact_integers(const std::string& text, const std::string& source) {
    // Cheap test first: only a run of 19 or more digits can pass 64 bits (20 above uint64's
    // maximum, 19 below int64's minimum).
    size_t run = 0;
    bool long_run = false;
    for (const char c : text) {
        run = (c >= '0' && c <= '9') ? run + 1 : 0;
        if (run >= 19) {
            long_run = true;
            break;
        }
    }
    if (!long_run) return;
    InexactIntegerFinder finder;
    OrderedJson::sax_parse(text, &finder, nlohmann::detail::input_format_t::json, false);
    if (finder.literal.empty()) return;
    throw SchemaError(source + ": " +
                      (finder.where.empty() ? "the value" : "'" + finder.where + "'") +
                      " is the integer " + shorten(finder.literal) +
                      ", which does not fit in 64 bits: it would be written rounded to a double. "
                      "Give it as a string to keep every digit, or as a float (e.g. 1.5e30) to "
                      "accept the rounding");
}

OrderedJson parse_user_json_document(const std::string& text, const std::string& source) {
    OrderedJson doc = parse_json_document(text, source);
    refuse_inexact_integers(text, source);
    return doc;
}

}  // namespace taco::format
