#include "model/time_format.hpp"

#include <cctype>

namespace taco::model {
namespace {

// Howard Hinnant's days_from_civil / civil_from_days: exact for the proleptic Gregorian calendar.
int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

void civil_from_days(int64_t z, int64_t& y, unsigned& m, unsigned& d) {
    z += 719468;
    const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const unsigned doe = static_cast<unsigned>(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    y = static_cast<int64_t>(yoe) + era * 400;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    d = doy - (153 * mp + 2) / 5 + 1;
    m = mp + (mp < 10 ? 3 : -9);
    y += m <= 2;
}

constexpr int64_t kMicrosPerDay = 86400LL * 1000000LL;

// Writes digits by hand: snprintf was a fifth of `taco sql --csv`'s time on timestamps.
struct IsoWriter {
    char buf[64];
    size_t n = 0;

    void digits(int64_t v, int width) {
        for (int i = width - 1; i >= 0; --i, v /= 10) buf[n + i] = static_cast<char>('0' + v % 10);
        n += static_cast<size_t>(width);
    }
    void put(char c) { buf[n++] = c; }
    // "YYYY-MM-DD" of `days` since 1970-01-01; a sign before years below 0, a fifth digit and
    // more above 9999 (ISO 8601's expanded years).
    void date(int64_t days) {
        int64_t y;
        unsigned m, d;
        civil_from_days(days, y, m, d);
        if (y < 0) put('-');
        const uint64_t year = y < 0 ? 0 - static_cast<uint64_t>(y) : static_cast<uint64_t>(y);
        int width = 4;
        for (uint64_t big = 10000; year >= big && width < 19; big *= 10) ++width;
        digits(static_cast<int64_t>(year), width);
        put('-');
        digits(m, 2);
        put('-');
        digits(d, 2);
    }
    std::string text() const { return std::string(buf, n); }
};

}  // namespace

int64_t micros_from_civil(int64_t year, unsigned month, unsigned day, int64_t hour, int64_t minute,
                          int64_t second, int64_t microsecond) {
    int64_t days = days_from_civil(year, month, day);
    return ((days * 24 + hour) * 60 + minute) * 60 * 1000000 + second * 1000000 + microsecond;
}

std::string format_iso_utc(int64_t micros) {
    int64_t days = micros / kMicrosPerDay;
    int64_t rem = micros % kMicrosPerDay;
    if (rem < 0) {
        rem += kMicrosPerDay;
        --days;
    }
    const int64_t secs = rem / 1000000, frac = rem % 1000000;
    IsoWriter w;
    w.date(days);
    w.put('T');
    w.digits(secs / 3600, 2);
    w.put(':');
    w.digits(secs / 60 % 60, 2);
    w.put(':');
    w.digits(secs % 60, 2);
    if (frac) {
        w.put('.');
        w.digits(frac, 6);
    }
    w.put('Z');
    return w.text();
}

std::string format_iso_date(int64_t days) {
    IsoWriter w;
    w.date(days);
    return w.text();
}

std::optional<int64_t> parse_iso_utc(const std::string& s) {
    size_t i = 0;
    auto digits = [&](size_t count, int64_t& out) {
        if (i + count > s.size()) return false;
        out = 0;
        for (size_t k = 0; k < count; ++k) {
            if (!std::isdigit(static_cast<unsigned char>(s[i + k]))) return false;
            out = out * 10 + (s[i + k] - '0');
        }
        i += count;
        return true;
    };
    auto expect = [&](char c) {
        if (i < s.size() && s[i] == c) {
            ++i;
            return true;
        }
        return false;
    };
    int64_t y, mo, d, h = 0, mi = 0, sec = 0, frac = 0;
    if (!digits(4, y) || !expect('-') || !digits(2, mo) || !expect('-') || !digits(2, d))
        return std::nullopt;
    if (mo < 1 || mo > 12 || d < 1 || d > 31) return std::nullopt;
    static constexpr int64_t kMonthDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (d > kMonthDays[mo - 1] + (mo == 2 && leap)) return std::nullopt;  // e.g. 2023-02-30
    if (i < s.size() && (s[i] == 'T' || s[i] == ' ')) {
        ++i;
        if (!digits(2, h) || !expect(':') || !digits(2, mi)) return std::nullopt;
        if (expect(':')) {
            if (!digits(2, sec)) return std::nullopt;
            if (expect('.')) {
                size_t start = i;
                int64_t scale = 100000;
                while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
                    if (scale > 0) frac += (s[i] - '0') * scale;
                    scale /= 10;
                    ++i;
                }
                if (i == start) return std::nullopt;
            }
        }
        if (h > 23 || mi > 59 || sec > 59) return std::nullopt;  // Python rejects leap seconds too
    }
    int64_t offset_minutes = 0;
    if (i < s.size()) {
        if (s[i] == 'Z' || s[i] == 'z') {
            ++i;
        } else if (s[i] == '+' || s[i] == '-') {
            int sign = s[i] == '-' ? -1 : 1;
            ++i;
            int64_t oh, om = 0;
            if (!digits(2, oh)) return std::nullopt;
            expect(':');
            if (i < s.size() && !digits(2, om)) return std::nullopt;
            offset_minutes = sign * (oh * 60 + om);
        }
    }
    if (i != s.size()) return std::nullopt;
    int64_t days = days_from_civil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d));
    int64_t secs = days * 86400 + h * 3600 + mi * 60 + sec - offset_minutes * 60;
    return secs * 1000000 + frac;
}

}  // namespace taco::model
