// ISO 8601 instants and STAC-style ranges to microseconds, without the C library's time zone
// state (timegm and friends read TZ and are limited to whole seconds).
#include <cctype>
#include <cstdio>
#include <string_view>

#include "taco/errors.hpp"
#include "taco/filters.hpp"

namespace taco {
namespace {

constexpr int64_t kUsPerSecond = 1000000;
constexpr int64_t kUsPerDay = 86400 * kUsPerSecond;

// Days from 1970-01-01 to the proleptic Gregorian date (Howard Hinnant's days_from_civil).
int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

unsigned days_in_month(int64_t y, unsigned m) {
    static const unsigned days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 && leap ? 29 : days[m - 1];
}

class Cursor {
  public:
    explicit Cursor(std::string_view s) : s_(s) {}
    bool done() const { return i_ >= s_.size(); }
    char peek() const { return done() ? '\0' : s_[i_]; }
    bool take(char c) {
        if (peek() != c) return false;
        ++i_;
        return true;
    }
    // Exactly `n` digits.
    bool digits(int n, int64_t& out) {
        out = 0;
        for (int k = 0; k < n; ++k) {
            if (done() || !std::isdigit(static_cast<unsigned char>(s_[i_]))) return false;
            out = out * 10 + (s_[i_++] - '0');
        }
        return true;
    }
    size_t pos() const { return i_; }

  private:
    std::string_view s_;
    size_t i_ = 0;
};

[[noreturn]] void bad_instant(const std::string& text, const std::string& why) {
    throw QueryError("'" + text + "' is not an ISO 8601 date or datetime (" + why +
                     "); expected e.g. 2023-01-01, 2023-01-01T10:30:00Z or "
                     "2023-01-01T10:30:00.123456+02:00");
}

std::string trim(const std::string& s) {
    size_t a = 0, b = s.size();
    while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
    while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
    return s.substr(a, b - a);
}

}  // namespace

int64_t parse_instant_us(const std::string& raw, bool end_of_day) {
    const std::string text = trim(raw);
    Cursor c(text);
    int64_t year, month, day;
    if (!c.digits(4, year) || !c.take('-') || !c.digits(2, month) || !c.take('-') ||
        !c.digits(2, day)) {
        bad_instant(text, "expected YYYY-MM-DD first");
    }
    if (month < 1 || month > 12) bad_instant(text, "month " + std::to_string(month));
    if (day < 1 || day > days_in_month(year, static_cast<unsigned>(month))) {
        bad_instant(text, "day " + std::to_string(day) + " does not exist in that month");
    }
    const int64_t midnight =
        days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day)) * kUsPerDay;
    if (c.done()) return end_of_day ? midnight + kUsPerDay - 1 : midnight;
    if (!c.take('T') && !c.take('t') && !c.take(' '))
        bad_instant(text, "expected T after the date");
    int64_t hour, minute, second = 0, micros = 0;
    if (!c.digits(2, hour) || !c.take(':') || !c.digits(2, minute)) {
        bad_instant(text, "expected HH:MM after T");
    }
    if (c.take(':')) {
        if (!c.digits(2, second)) bad_instant(text, "expected two digits of seconds");
        if (c.take('.') || c.take(',')) {
            int n = 0;
            while (std::isdigit(static_cast<unsigned char>(c.peek()))) {
                int64_t d;
                c.digits(1, d);
                if (++n > 6 && d != 0) bad_instant(text, "finer than a microsecond");
                if (n <= 6) micros = micros * 10 + d;
            }
            if (n == 0) bad_instant(text, "expected digits after the decimal point");
            for (; n < 6; ++n) micros *= 10;
        }
    }
    if (hour > 23 || minute > 59 || second > 59) bad_instant(text, "time of day out of range");
    int64_t offset_us = 0;
    if (c.take('Z') || c.take('z')) {
    } else if (c.peek() == '+' || c.peek() == '-') {
        const int sign = c.peek() == '-' ? -1 : 1;
        c.take(c.peek());
        int64_t oh, om = 0;
        if (!c.digits(2, oh)) bad_instant(text, "expected ±HH[:MM] as the offset");
        if (c.take(':')) {
            if (!c.digits(2, om)) bad_instant(text, "expected ±HH:MM as the offset");
        } else if (!c.done()) {
            if (!c.digits(2, om)) bad_instant(text, "expected ±HHMM as the offset");
        }
        if (oh > 23 || om > 59) bad_instant(text, "offset out of range");
        offset_us = sign * (oh * 3600 + om * 60) * kUsPerSecond;
    }
    if (!c.done()) bad_instant(text, "unexpected text at character " + std::to_string(c.pos() + 1));
    return midnight + ((hour * 60 + minute) * 60 + second) * kUsPerSecond + micros - offset_us;
}

TimeRange parse_time_range(const std::string& raw) {
    const std::string text = trim(raw);
    if (text.empty()) throw QueryError("the time range is empty; expected START/END or an instant");
    const size_t slash = text.find('/');
    TimeRange r;
    if (slash == std::string::npos) {
        if (text == "..") throw QueryError("the time range '..' is open on both sides");
        r.start_us = parse_instant_us(text, false);
        r.end_us = parse_instant_us(text, true);
        return r;
    }
    if (text.find('/', slash + 1) != std::string::npos) {
        throw QueryError("the time range '" + text + "' has more than one '/'; expected START/END");
    }
    const std::string a = trim(text.substr(0, slash)), b = trim(text.substr(slash + 1));
    if (a != ".." && !a.empty()) r.start_us = parse_instant_us(a, false);
    if (b != ".." && !b.empty()) r.end_us = parse_instant_us(b, true);
    if (!r.start_us && !r.end_us) {
        throw QueryError("the time range '" + text +
                         "' is open on both sides; give a start or "
                         "an end");
    }
    if (r.start_us && r.end_us && *r.start_us > *r.end_us) {
        throw QueryError("the time range '" + text + "' is reversed: its start is after its end");
    }
    return r;
}

std::string format_instant_us(int64_t us) {
    // Floor division without negating `us` (INT64_MIN has no positive twin).
    int64_t days = us / kUsPerDay;
    int64_t rest = us % kUsPerDay;
    if (rest < 0) {
        rest += kUsPerDay;
        --days;
    }
    // civil_from_days (Howard Hinnant).
    days += 719468;
    const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
    const unsigned doe = static_cast<unsigned>(days - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    const unsigned d = doy - (153 * mp + 2) / 5 + 1;
    const unsigned m = mp < 10 ? mp + 3 : mp - 9;
    const int64_t y = static_cast<int64_t>(yoe) + era * 400 + (m <= 2);
    const int64_t micros = rest % kUsPerSecond;
    rest /= kUsPerSecond;
    char buf[64];
    // ISO 8601 years before 1 CE: a sign, then at least four digits ("-0001").
    std::snprintf(buf, sizeof buf, "%s%04lld-%02u-%02uT%02lld:%02lld:%02lld", y < 0 ? "-" : "",
                  static_cast<long long>(y < 0 ? -y : y), m, d, static_cast<long long>(rest / 3600),
                  static_cast<long long>(rest / 60 % 60), static_cast<long long>(rest % 60));
    std::string out = buf;
    if (micros) {
        std::snprintf(buf, sizeof buf, ".%06lld", static_cast<long long>(micros));
        out += buf;
    }
    return out + "Z";
}

}  // namespace taco
