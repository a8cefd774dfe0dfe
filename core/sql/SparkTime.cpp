#include "core/sql/SparkTime.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace cdc::sql {

namespace {

// Howard Hinnant's civil-calendar algorithms (proleptic Gregorian).
std::int64_t daysFromCivil(std::int64_t y, unsigned m, unsigned d) {
    y -= m <= 2;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

void civilFromDays(std::int64_t z, std::int64_t& y, unsigned& m, unsigned& d) {
    z += 719468;
    const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const unsigned doe = static_cast<unsigned>(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    y = static_cast<std::int64_t>(yoe) + era * 400;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    d = doy - (153 * mp + 2) / 5 + 1;
    m = mp < 10 ? mp + 3 : mp - 9;
    y += m <= 2;
}

bool validDate(std::int64_t y, unsigned m, unsigned d) {
    static const unsigned kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (m < 1 || m > 12 || d < 1)
        return false;
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return d <= kDays[m - 1] + (m == 2 && leap ? 1u : 0u);
}

struct Fields {
    std::int64_t year = 1970;
    unsigned month = 1, day = 1;
    int hour = 0, minute = 0, second = 0, micros = 0;
    int offsetSeconds = 0;
    bool pm = false, hasAmPm = false;
};

std::optional<SparkTimestamp> build(const Fields& f) {
    if (!validDate(f.year, f.month, f.day) || f.hour > 23 || f.minute > 59 || f.second > 59)
        return std::nullopt;
    int hour = f.hour;
    if (f.hasAmPm) {
        hour %= 12;
        if (f.pm)
            hour += 12;
    }
    SparkTimestamp t;
    t.seconds = daysFromCivil(f.year, f.month, f.day) * 86400 + hour * 3600 + f.minute * 60 + f.second -
                f.offsetSeconds;
    t.micros = f.micros;
    return t;
}

class Reader {
public:
    explicit Reader(std::string_view s) : m_s(s) {}
    bool done() const { return m_i >= m_s.size(); }
    char peek() const { return done() ? '\0' : m_s[m_i]; }
    bool accept(char c) {
        if (peek() != c)
            return false;
        ++m_i;
        return true;
    }
    /// Reads between min and max digits.
    std::optional<std::int64_t> digits(std::size_t min, std::size_t max, std::size_t* count = nullptr) {
        std::size_t start = m_i;
        std::int64_t v = 0;
        while (m_i < m_s.size() && m_i - start < max && m_s[m_i] >= '0' && m_s[m_i] <= '9')
            v = v * 10 + (m_s[m_i++] - '0');
        if (m_i - start < min) {
            m_i = start;
            return std::nullopt;
        }
        if (count)
            *count = m_i - start;
        return v;
    }
    void skipSpaces() {
        while (peek() == ' ')
            ++m_i;
    }
    std::string_view rest() const { return m_s.substr(std::min(m_i, m_s.size())); }
    void skip(std::size_t n) { m_i += n; }

private:
    std::string_view m_s;
    std::size_t m_i = 0;
};

int fractionMicros(std::int64_t value, std::size_t digits) {
    while (digits > 6) {
        value /= 10;
        --digits;
    }
    while (digits < 6) {
        value *= 10;
        ++digits;
    }
    return static_cast<int>(value);
}

// An offset after its sign: [h]h, [h]h:[m]m, hh:mm:ss, hhmm or hhmmss; at most 18 hours.
bool readOffset(Reader& r, int sign, Fields& f) {
    auto hh = r.digits(1, 2);
    if (!hh)
        return false;
    std::int64_t mm = 0, ss = 0;
    if (r.accept(':')) {
        auto m = r.digits(1, 2);
        if (!m)
            return false;
        mm = *m;
        if (r.accept(':')) {
            auto s = r.digits(2, 2);
            if (!s)
                return false;
            ss = *s;
        }
    } else if (auto m = r.digits(2, 2)) {
        mm = *m;
        ss = r.digits(2, 2).value_or(0);
    }
    const std::int64_t seconds = *hh * 3600 + mm * 60 + ss;
    if (mm > 59 || ss > 59 || seconds > 18 * 3600)
        return false;
    f.offsetSeconds = static_cast<int>(seconds * sign);
    return true;
}

// The zone after a timestamp: none (UTC, the simulator's session zone), Z, an offset, or UTC / GMT / UT
// with an optional offset.
bool readZone(Reader& r, Fields& f) {
    r.skipSpaces();
    if (r.done())
        return true;
    if (r.accept('Z') || r.accept('z'))
        return r.done();
    for (std::string_view prefix : {"UTC", "GMT", "UT"}) {
        if (r.rest().substr(0, prefix.size()) == prefix) {
            r.skip(prefix.size());
            break;
        }
    }
    if (r.done())
        return true;
    const char sign = r.peek();
    if (sign != '+' && sign != '-')
        return false;
    r.skip(1);
    return readOffset(r, sign == '-' ? -1 : 1, f) && r.done();
}

// The time after a date's 'T' or blank: [h]h[:], [h]h:[m]m[:], [h]h:[m]m:[s]s[.] and a fraction (digits
// past microseconds are dropped). Each part may be missing from the end on.
void readTime(Reader& r, Fields& f) {
    int* const fields[] = {&f.hour, &f.minute, &f.second};
    for (int i = 0; i < 3; ++i) {
        auto v = r.digits(1, 2);
        if (!v)
            return;
        *fields[i] = static_cast<int>(*v);
        if (i < 2 && !r.accept(':'))
            return;
    }
    if (!r.accept('.'))
        return;
    std::size_t count = 0;
    if (auto frac = r.digits(1, 18, &count))
        f.micros = fractionMicros(*frac, count);
}

// The date part: yyyy[...], -[m]m, -[d]d; months and days default to 1.
bool readDate(Reader& r, Fields& f) {
    auto y = r.digits(4, 6);
    if (!y)
        return false;
    f.year = *y;
    for (unsigned* part : {&f.month, &f.day}) {
        if (!r.accept('-'))
            return true;
        auto v = r.digits(1, 2);
        if (!v)
            return false;
        *part = static_cast<unsigned>(*v);
    }
    return true;
}

// The quoted text of a pattern at i: '...', where '' stands for one quote, inside quotes too
// ('o''clock' is o'clock). Appends it to out; returns the index after it.
std::size_t quotedText(std::string_view pattern, std::size_t i, std::string& out) {
    if (i + 1 < pattern.size() && pattern[i + 1] == '\'') {
        out += '\'';
        return i + 2;
    }
    for (++i; i < pattern.size(); ++i) {
        if (pattern[i] != '\'') {
            out += pattern[i];
        } else if (i + 1 < pattern.size() && pattern[i + 1] == '\'') {
            out += '\'';
            ++i;
        } else {
            return i + 1;
        }
    }
    return i;
}

std::string_view trimmed(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return text;
}

} // namespace

std::string SparkTimestamp::toStorage() const {
    std::int64_t days = seconds >= 0 ? seconds / 86400 : -((-seconds + 86399) / 86400);
    std::int64_t rem = seconds - days * 86400;
    std::int64_t y;
    unsigned m, d;
    civilFromDays(days, y, m, d);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04lld-%02u-%02u %02d:%02d:%02d", static_cast<long long>(y), m, d,
                  static_cast<int>(rem / 3600), static_cast<int>(rem % 3600 / 60),
                  static_cast<int>(rem % 60));
    std::string out = buf;
    if (micros) {
        std::snprintf(buf, sizeof buf, ".%06d", micros);
        out += buf;
    }
    return out;
}

std::optional<SparkTimestamp> SparkTimestamp::plus(std::int64_t months, std::int64_t days,
                                                   std::int64_t addMicros) const {
    // Spark holds a TIMESTAMP as int64 microseconds (years -290308 to 294247): far larger month or day
    // counts overflow there anyway, and bounding them first keeps the calendar arithmetic below in range.
    constexpr std::int64_t kMaxMonths = 12 * 600'000, kMaxDays = 366 * 600'000;
    if (months > kMaxMonths || months < -kMaxMonths || days > kMaxDays || days < -kMaxDays)
        return std::nullopt;
    std::int64_t day = seconds >= 0 ? seconds / 86400 : -((-seconds + 86399) / 86400);
    const std::int64_t secondOfDay = seconds - day * 86400;
    if (months) {
        std::int64_t y;
        unsigned m, d;
        civilFromDays(day, y, m, d);
        const std::int64_t total = y * 12 + (m - 1) + months;
        const std::int64_t year = total >= 0 ? total / 12 : -((-total + 11) / 12);
        const unsigned month = static_cast<unsigned>(total - year * 12 + 1);
        unsigned lastDay = 31;
        while (!validDate(year, month, lastDay))
            --lastDay;
        day = daysFromCivil(year, month, std::min(d, lastDay));
    }
    day += days;
    std::int64_t total = 0;
    if (__builtin_mul_overflow(day * 86400 + secondOfDay, std::int64_t{1000000}, &total) ||
        __builtin_add_overflow(total, std::int64_t{micros}, &total) ||
        __builtin_add_overflow(total, addMicros, &total))
        return std::nullopt;
    SparkTimestamp out;
    out.seconds = total >= 0 ? total / 1000000 : -((-total + 999999) / 1000000);
    out.micros = static_cast<int>(total - out.seconds * 1000000);
    return out;
}

std::string SparkTimestamp::toDate() const {
    return toStorage().substr(0, 10);
}

std::string SparkTimestamp::format(std::string_view pattern) const {
    std::string s = toStorage();
    std::int64_t days = seconds >= 0 ? seconds / 86400 : -((-seconds + 86399) / 86400);
    std::int64_t rem = seconds - days * 86400;
    std::int64_t y;
    unsigned m, d;
    civilFromDays(days, y, m, d);
    int hour = static_cast<int>(rem / 3600), minute = static_cast<int>(rem % 3600 / 60),
        second = static_cast<int>(rem % 60);
    static const char* kDayNames[] = {"Thursday", "Friday",  "Saturday", "Sunday",
                                      "Monday",   "Tuesday", "Wednesday"};
    static const char* kMonthNames[] = {"January",   "February", "March",    "April",
                                        "May",       "June",     "July",     "August",
                                        "September", "October",  "November", "December"};
    std::string out;
    auto pad = [](std::int64_t v, std::size_t width) {
        std::string t = std::to_string(v);
        return t.size() < width ? std::string(width - t.size(), '0') + t : t;
    };
    for (std::size_t i = 0; i < pattern.size();) {
        char c = pattern[i];
        if (c == '\'') {
            i = quotedText(pattern, i, out);
            continue;
        }
        if (!std::isalpha(static_cast<unsigned char>(c))) {
            out += c;
            ++i;
            continue;
        }
        std::size_t n = 1;
        while (i + n < pattern.size() && pattern[i + n] == c)
            ++n;
        switch (c) {
        case 'y':
            out += n == 2 ? pad(y % 100, 2) : pad(y, n);
            break;
        case 'M':
        case 'L':
            out += n >= 4   ? kMonthNames[m - 1]
                   : n == 3 ? std::string(kMonthNames[m - 1]).substr(0, 3)
                            : pad(m, n);
            break;
        case 'd':
            out += pad(d, n);
            break;
        case 'H':
            out += pad(hour, n);
            break;
        case 'h':
            out += pad(hour % 12 == 0 ? 12 : hour % 12, n);
            break;
        case 'm':
            out += pad(minute, n);
            break;
        case 's':
            out += pad(second, n);
            break;
        case 'S':
            out +=
                pad(micros, 6).substr(0, std::min<std::size_t>(n, 6)) + std::string(n > 6 ? n - 6 : 0, '0');
            break;
        case 'a':
            out += hour < 12 ? "AM" : "PM";
            break;
        case 'E': {
            std::string name = kDayNames[((days % 7) + 7) % 7];
            out += n >= 4 ? name : name.substr(0, 3);
            break;
        }
        default:
            out += std::string(n, c);
            break;
        }
        i += n;
    }
    return out;
}

std::optional<SparkTimestamp> SparkTimestamp::parse(std::string_view text) {
    Reader r(trimmed(text));
    Fields f;
    if (!readDate(r, f))
        return std::nullopt;
    if (r.accept('T') || r.accept(' '))
        readTime(r, f);
    if (!readZone(r, f))
        return std::nullopt;
    return build(f);
}

std::optional<SparkTimestamp> SparkTimestamp::parseDate(std::string_view text) {
    Reader r(trimmed(text));
    Fields f;
    if (!readDate(r, f) || !(r.done() || r.accept('T') || r.accept(' ')))
        return std::nullopt;
    return build(f);
}

std::optional<SparkTimestamp> SparkTimestamp::parse(std::string_view text, std::string_view pattern) {
    Reader r(text);
    Fields f;
    for (std::size_t i = 0; i < pattern.size();) {
        char c = pattern[i];
        if (c == '\'') {
            std::string literal;
            i = quotedText(pattern, i, literal);
            for (char lit : literal)
                if (!r.accept(lit))
                    return std::nullopt;
            continue;
        }
        if (!std::isalpha(static_cast<unsigned char>(c))) {
            if (!r.accept(c))
                return std::nullopt;
            ++i;
            continue;
        }
        std::size_t n = 1;
        while (i + n < pattern.size() && pattern[i + n] == c)
            ++n;
        std::size_t count = 0;
        std::optional<std::int64_t> v;
        switch (c) {
        case 'y':
            v = r.digits(n == 2 ? 2 : 1, n == 2 ? 2 : 9);
            if (v)
                f.year = n == 2 ? 2000 + *v : *v;
            break;
        case 'M':
            v = r.digits(n, 2);
            if (v)
                f.month = static_cast<unsigned>(*v);
            break;
        case 'd':
            v = r.digits(n, 2);
            if (v)
                f.day = static_cast<unsigned>(*v);
            break;
        case 'H':
        case 'h':
            v = r.digits(n, 2);
            if (v)
                f.hour = static_cast<int>(*v);
            break;
        case 'm':
            v = r.digits(n, 2);
            if (v)
                f.minute = static_cast<int>(*v);
            break;
        case 's':
            v = r.digits(n, 2);
            if (v)
                f.second = static_cast<int>(*v);
            break;
        case 'S':
            v = r.digits(1, 9, &count);
            if (v)
                f.micros = fractionMicros(*v, count);
            break;
        case 'a':
            f.hasAmPm = true;
            if (r.rest().substr(0, 2) == "PM" || r.rest().substr(0, 2) == "pm")
                f.pm = true;
            r.skip(2);
            v = 0;
            break;
        case 'X':
        case 'Z':
        case 'x': {
            if (!readZone(r, f))
                return std::nullopt;
            v = 0;
            break;
        }
        default:
            return std::nullopt;
        }
        if (!v)
            return std::nullopt;
        i += n;
    }
    if (!r.done())
        return std::nullopt;
    return build(f);
}

SparkTimestamp SparkTimestamp::fromEpochSeconds(double seconds) {
    SparkTimestamp t;
    double whole = std::floor(seconds);
    t.seconds = static_cast<std::int64_t>(whole);
    t.micros = static_cast<int>(std::llround((seconds - whole) * 1e6));
    if (t.micros >= 1000000) {
        t.seconds += 1;
        t.micros -= 1000000;
    }
    return t;
}

SparkTimestamp SparkTimestamp::now() {
    auto us = std::chrono::duration_cast<std::chrono::microseconds>(
                  std::chrono::system_clock::now().time_since_epoch())
                  .count();
    SparkTimestamp t;
    t.seconds = us / 1000000;
    t.micros = static_cast<int>(us % 1000000);
    return t;
}

} // namespace cdc::sql
