// SQLite functions that give the translated SQL Spark semantics where SQLite differs.
#include "core/sql/SqlApi.h"

#include "core/common/DataType.h"
#include "core/sql/SparkTime.h"

#include <sqlite3.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <regex>
#include <string>
#include <unordered_map>

namespace cdc::sql {

namespace {

std::string_view textArg(sqlite3_value* v) {
    const unsigned char* t = sqlite3_value_text(v);
    return t ? std::string_view(reinterpret_cast<const char*>(t),
                                static_cast<std::size_t>(sqlite3_value_bytes(v)))
             : std::string_view();
}

bool isNullArg(sqlite3_value* v) {
    return sqlite3_value_type(v) == SQLITE_NULL;
}

void resultText(sqlite3_context* ctx, const std::string& s) {
    sqlite3_result_text64(ctx, s.data(), s.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

std::optional<double> parseDouble(std::string_view s) {
    s = trim(s);
    if (s.empty())
        return std::nullopt;
    std::string lower;
    for (char c : s)
        lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "nan")
        return std::nan("");
    if (lower == "infinity" || lower == "inf" || lower == "+infinity")
        return HUGE_VAL;
    if (lower == "-infinity" || lower == "-inf")
        return -HUGE_VAL;
    std::string copy(s);
    char* end = nullptr;
    double d = std::strtod(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size())
        return std::nullopt;
    return d;
}

/// Java's Double.toString closely enough for display: "3.5", "1.0", "1.0E20".
std::string sparkDoubleText(double d) {
    if (std::isnan(d))
        return "NaN";
    if (std::isinf(d))
        return d > 0 ? "Infinity" : "-Infinity";
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, d);
    std::string s(buf, res.ptr);
    auto e = s.find('e');
    if (e == std::string::npos)
        return s.find('.') == std::string::npos ? s + ".0" : s;
    std::string mantissa = s.substr(0, e), exponent = s.substr(e + 1);
    if (mantissa.find('.') == std::string::npos)
        mantissa += ".0";
    if (!exponent.empty() && exponent[0] == '+')
        exponent.erase(0, 1);
    while (exponent.size() > 1 && (exponent[0] == '0' || (exponent[0] == '-' && exponent[1] == '0'))) {
        if (exponent[0] == '-')
            exponent.erase(1, 1);
        else
            exponent.erase(0, 1);
    }
    return mantissa + "E" + exponent;
}

/// Rounds HALF_UP on the shortest decimal spelling of d (1.005 -> 1.01), as Spark's exact decimals do.
double roundDecimal(double d, int scale) {
    char buf[512];
    auto res = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::fixed);
    std::string s(buf, res.ptr);
    std::size_t dot = s.find('.');
    if (dot == std::string::npos || s.size() - dot - 1 <= static_cast<std::size_t>(scale))
        return d;
    bool up = s[dot + 1 + static_cast<std::size_t>(scale)] >= '5';
    double v = std::strtod(s.substr(0, dot + 1 + static_cast<std::size_t>(scale)).c_str(), nullptr);
    if (up)
        v += (d < 0 ? -1.0 : 1.0) * std::pow(10.0, -scale);
    std::snprintf(buf, sizeof buf, "%.*f", scale, v);
    return std::strtod(buf, nullptr);
}

const DataType* cachedType(std::string_view spelling) {
    thread_local std::unordered_map<std::string, std::optional<DataType>> cache;
    auto [it, inserted] = cache.try_emplace(std::string(spelling));
    if (inserted)
        it->second = DataType::parse(spelling);
    return it->second ? &*it->second : nullptr;
}

/// spark_cast(value, 'TYPE'): Spark's (non-ANSI) CAST into the storage form of DataType.h; invalid -> NULL.
void sparkCast(sqlite3_context* ctx, int, sqlite3_value** argv) {
    using K = DataType::Kind;
    sqlite3_value* v = argv[0];
    if (isNullArg(v)) {
        sqlite3_result_null(ctx);
        return;
    }
    const DataType* type = cachedType(textArg(argv[1]));
    if (!type) {
        sqlite3_result_error(ctx, "spark_cast: unknown type", -1);
        return;
    }
    int vt = sqlite3_value_type(v);
    switch (type->kind) {
    case K::Void:
        sqlite3_result_null(ctx);
        return;
    case K::TinyInt:
    case K::SmallInt:
    case K::Int:
    case K::BigInt: {
        if (vt == SQLITE_INTEGER) {
            sqlite3_result_int64(ctx, sqlite3_value_int64(v));
        } else if (vt == SQLITE_FLOAT) {
            double d = sqlite3_value_double(v);
            if (std::isnan(d))
                sqlite3_result_null(ctx);
            else
                sqlite3_result_int64(ctx, static_cast<sqlite3_int64>(std::trunc(d)));
        } else if (vt == SQLITE_TEXT) {
            std::string_view s = trim(textArg(v));
            sqlite3_int64 i = 0;
            auto res = std::from_chars(s.data(), s.data() + s.size(), i);
            if (!s.empty() && res.ec == std::errc() && res.ptr == s.data() + s.size()) {
                sqlite3_result_int64(ctx, i);
            } else if (auto d = parseDouble(s); d && std::isfinite(*d)) {
                sqlite3_result_int64(ctx, static_cast<sqlite3_int64>(std::trunc(*d)));
            } else {
                sqlite3_result_null(ctx);
            }
        } else {
            sqlite3_result_null(ctx);
        }
        return;
    }
    case K::Boolean: {
        if (vt == SQLITE_INTEGER || vt == SQLITE_FLOAT) {
            sqlite3_result_int(ctx, sqlite3_value_double(v) != 0.0);
            return;
        }
        std::string s;
        for (char c : trim(textArg(v)))
            s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (s == "true" || s == "t" || s == "yes" || s == "y" || s == "1")
            sqlite3_result_int(ctx, 1);
        else if (s == "false" || s == "f" || s == "no" || s == "n" || s == "0")
            sqlite3_result_int(ctx, 0);
        else
            sqlite3_result_null(ctx);
        return;
    }
    case K::Float:
    case K::Double:
    case K::Decimal: {
        std::optional<double> d;
        if (vt == SQLITE_INTEGER || vt == SQLITE_FLOAT)
            d = sqlite3_value_double(v);
        else if (vt == SQLITE_TEXT)
            d = parseDouble(textArg(v));
        if (!d) {
            sqlite3_result_null(ctx);
            return;
        }
        if (type->kind == K::Decimal) {
            if (!std::isfinite(*d)) {
                sqlite3_result_null(ctx);
                return;
            }
            *d = roundDecimal(*d, type->scale);
        } else if (type->kind == K::Float) {
            *d = static_cast<double>(static_cast<float>(*d));
        }
        sqlite3_result_double(ctx, *d);
        return;
    }
    case K::String:
    case K::Variant:
    case K::Array:
    case K::Map:
    case K::Struct:
        if (vt == SQLITE_FLOAT)
            resultText(ctx, sparkDoubleText(sqlite3_value_double(v)));
        else
            resultText(ctx, std::string(textArg(v)));
        return;
    case K::Binary:
        if (vt == SQLITE_BLOB)
            sqlite3_result_value(ctx, v);
        else
            sqlite3_result_blob64(ctx, textArg(v).data(), textArg(v).size(), SQLITE_TRANSIENT);
        return;
    case K::Date:
    case K::Timestamp:
    case K::TimestampNtz: {
        std::optional<SparkTimestamp> t;
        if (vt == SQLITE_TEXT)
            t = type->kind == K::Date ? SparkTimestamp::parseDate(textArg(v))
                                      : SparkTimestamp::parse(textArg(v));
        else if ((vt == SQLITE_INTEGER || vt == SQLITE_FLOAT) && type->kind != K::Date)
            t = SparkTimestamp::fromEpochSeconds(sqlite3_value_double(v));
        if (!t)
            sqlite3_result_null(ctx);
        else
            resultText(ctx, type->kind == K::Date ? t->toDate() : t->toStorage());
        return;
    }
    }
    sqlite3_result_null(ctx);
}

/// Decodes one UTF-8 code point length at s[i].
std::size_t utf8Length(unsigned char c) {
    if (c < 0x80)
        return 1;
    if ((c >> 5) == 6)
        return 2;
    if ((c >> 4) == 14)
        return 3;
    if ((c >> 3) == 30)
        return 4;
    return 1;
}

bool likeMatch(std::string_view s, std::string_view p, char escape) {
    std::size_t si = 0, pi = 0, starP = std::string_view::npos, starS = 0;
    while (si < s.size()) {
        if (pi < p.size()) {
            char c = p[pi];
            if (c == escape && pi + 1 < p.size()) {
                std::size_t n = utf8Length(static_cast<unsigned char>(p[pi + 1]));
                if (s.substr(si, n) == p.substr(pi + 1, n)) {
                    si += n;
                    pi += 1 + n;
                    continue;
                }
            } else if (c == '%') {
                starP = pi++;
                starS = si;
                continue;
            } else if (c == '_') {
                si += utf8Length(static_cast<unsigned char>(s[si]));
                ++pi;
                continue;
            } else {
                std::size_t n = utf8Length(static_cast<unsigned char>(c));
                if (s.substr(si, n) == p.substr(pi, n)) {
                    si += n;
                    pi += n;
                    continue;
                }
            }
        }
        if (starP == std::string_view::npos)
            return false;
        pi = starP + 1;
        starS += utf8Length(static_cast<unsigned char>(s[starS]));
        si = starS;
    }
    while (pi < p.size() && p[pi] == '%')
        ++pi;
    return pi == p.size();
}

/// spark_like(s, pattern[, escape]): case-sensitive LIKE (SQLite's LIKE ignores ASCII case).
void sparkLike(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
    if (isNullArg(argv[0]) || isNullArg(argv[1])) {
        sqlite3_result_null(ctx);
        return;
    }
    char escape = '\\';
    if (argc > 2 && !isNullArg(argv[2]) && !textArg(argv[2]).empty())
        escape = textArg(argv[2])[0];
    sqlite3_result_int(ctx, likeMatch(textArg(argv[0]), textArg(argv[1]), escape));
}

/// A compiled regex cached on the statement for a constant pattern argument.
const std::regex* regexArg(sqlite3_context* ctx, sqlite3_value** argv, int index) {
    auto* cached = static_cast<std::regex*>(sqlite3_get_auxdata(ctx, index));
    if (cached)
        return cached;
    try {
        auto re = std::make_unique<std::regex>(std::string(textArg(argv[index])), std::regex::ECMAScript);
        std::regex* raw = re.release();
        sqlite3_set_auxdata(ctx, index, raw, [](void* p) { delete static_cast<std::regex*>(p); });
        return static_cast<std::regex*>(sqlite3_get_auxdata(ctx, index)) ? raw : nullptr;
    } catch (const std::regex_error&) {
        sqlite3_result_error(ctx, "invalid regular expression", -1);
        return nullptr;
    }
}

/// The regex survives only when SQLite kept it as auxdata; otherwise compile a local copy.
template <class F> void withRegex(sqlite3_context* ctx, sqlite3_value** argv, int index, F&& f) {
    if (const std::regex* re = regexArg(ctx, argv, index)) {
        f(*re);
        return;
    }
    try {
        std::regex local(std::string(textArg(argv[index])), std::regex::ECMAScript);
        f(local);
    } catch (const std::regex_error&) {
        sqlite3_result_error(ctx, "invalid regular expression", -1);
    }
}

void sparkRlike(sqlite3_context* ctx, int, sqlite3_value** argv) {
    if (isNullArg(argv[0]) || isNullArg(argv[1])) {
        sqlite3_result_null(ctx);
        return;
    }
    std::string s(textArg(argv[0]));
    withRegex(ctx, argv, 1, [&](const std::regex& re) { sqlite3_result_int(ctx, std::regex_search(s, re)); });
}

/// regexp(pattern, s): backs SQLite's `s REGEXP pattern` operator.
void sqliteRegexp(sqlite3_context* ctx, int, sqlite3_value** argv) {
    if (isNullArg(argv[0]) || isNullArg(argv[1])) {
        sqlite3_result_null(ctx);
        return;
    }
    std::string s(textArg(argv[1]));
    withRegex(ctx, argv, 0, [&](const std::regex& re) { sqlite3_result_int(ctx, std::regex_search(s, re)); });
}

void sparkRegexpExtract(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
    if (isNullArg(argv[0]) || isNullArg(argv[1]) || (argc > 2 && isNullArg(argv[2]))) {
        sqlite3_result_null(ctx);
        return;
    }
    std::string s(textArg(argv[0]));
    sqlite3_int64 group = argc > 2 ? sqlite3_value_int64(argv[2]) : 1;
    withRegex(ctx, argv, 1, [&](const std::regex& re) {
        std::smatch m;
        if (!std::regex_search(s, m, re)) {
            resultText(ctx, "");
            return;
        }
        if (group < 0 || static_cast<std::size_t>(group) >= m.size()) {
            sqlite3_result_error(ctx, "regexp_extract: group index out of range", -1);
            return;
        }
        resultText(ctx, m[static_cast<std::size_t>(group)].matched ? m[static_cast<std::size_t>(group)].str()
                                                                   : "");
    });
}

void sparkRegexpReplace(sqlite3_context* ctx, int, sqlite3_value** argv) {
    if (isNullArg(argv[0]) || isNullArg(argv[1]) || isNullArg(argv[2])) {
        sqlite3_result_null(ctx);
        return;
    }
    std::string s(textArg(argv[0])), replacement(textArg(argv[2]));
    withRegex(ctx, argv, 1,
              [&](const std::regex& re) { resultText(ctx, std::regex_replace(s, re, replacement)); });
}

void sparkSplit(sqlite3_context* ctx, int, sqlite3_value** argv) {
    if (isNullArg(argv[0]) || isNullArg(argv[1])) {
        sqlite3_result_null(ctx);
        return;
    }
    std::string s(textArg(argv[0]));
    withRegex(ctx, argv, 1, [&](const std::regex& re) {
        std::string json = "[";
        std::sregex_token_iterator it(s.begin(), s.end(), re, -1), end;
        bool first = true;
        for (; it != end; ++it) {
            std::string piece = it->str(), quoted = "\"";
            for (char c : piece) {
                if (c == '"' || c == '\\')
                    quoted += '\\';
                quoted += c;
            }
            json += (first ? "" : ",") + quoted + "\"";
            first = false;
        }
        resultText(ctx, json + "]");
    });
}

void sparkToTimestamp(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
    if (isNullArg(argv[0]) || (argc > 1 && isNullArg(argv[1]))) {
        sqlite3_result_null(ctx);
        return;
    }
    std::optional<SparkTimestamp> t;
    int vt = sqlite3_value_type(argv[0]);
    if (argc > 1)
        t = SparkTimestamp::parse(textArg(argv[0]), textArg(argv[1]));
    else if (vt == SQLITE_INTEGER || vt == SQLITE_FLOAT)
        t = SparkTimestamp::fromEpochSeconds(sqlite3_value_double(argv[0]));
    else
        t = SparkTimestamp::parse(textArg(argv[0]));
    if (t)
        resultText(ctx, t->toStorage());
    else
        sqlite3_result_null(ctx);
}

void sparkDateFormat(sqlite3_context* ctx, int, sqlite3_value** argv) {
    if (isNullArg(argv[0]) || isNullArg(argv[1])) {
        sqlite3_result_null(ctx);
        return;
    }
    auto t = SparkTimestamp::parse(textArg(argv[0]));
    if (t)
        resultText(ctx, t->format(textArg(argv[1])));
    else
        sqlite3_result_null(ctx);
}

void sparkCurrentTimestamp(sqlite3_context* ctx, int, sqlite3_value**) {
    resultText(ctx, SparkTimestamp::now().toStorage());
}

/// greatest / least skip NULLs (SQLite's multi-argument max/min return NULL if any argument is NULL).
template <bool Greatest> void sparkExtreme(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
    sqlite3_value* best = nullptr;
    for (int i = 0; i < argc; ++i) {
        if (isNullArg(argv[i]))
            continue;
        if (!best) {
            best = argv[i];
            continue;
        }
        int bt = sqlite3_value_type(best), at = sqlite3_value_type(argv[i]);
        int cmp;
        bool numeric =
            (bt == SQLITE_INTEGER || bt == SQLITE_FLOAT) && (at == SQLITE_INTEGER || at == SQLITE_FLOAT);
        if (numeric) {
            double a = sqlite3_value_double(argv[i]), b = sqlite3_value_double(best);
            cmp = a < b ? -1 : (a > b ? 1 : 0);
        } else {
            cmp = textArg(argv[i]).compare(textArg(best));
        }
        if (Greatest ? cmp > 0 : cmp < 0)
            best = argv[i];
    }
    if (best)
        sqlite3_result_value(ctx, best);
    else
        sqlite3_result_null(ctx);
}

void sparkConcatWs(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
    if (argc == 0 || isNullArg(argv[0])) {
        sqlite3_result_null(ctx);
        return;
    }
    std::string sep(textArg(argv[0])), out;
    bool first = true;
    for (int i = 1; i < argc; ++i) {
        if (isNullArg(argv[i]))
            continue;
        out += (first ? "" : sep) + std::string(textArg(argv[i]));
        first = false;
    }
    resultText(ctx, out);
}

void define(sqlite3* db, const char* name, int argc, void (*fn)(sqlite3_context*, int, sqlite3_value**),
            bool deterministic = true) {
    int flags = SQLITE_UTF8 | SQLITE_INNOCUOUS | (deterministic ? SQLITE_DETERMINISTIC : 0);
    sqlite3_create_function_v2(db, name, argc, flags, nullptr, fn, nullptr, nullptr, nullptr);
}

} // namespace

void registerSparkFunctions(sqlite3* db) {
    // The translator quotes every identifier with double quotes; SQLite's legacy fallback would turn a
    // misspelt column into a string literal and hide the error. Spark has no such fallback.
    sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, nullptr);
    define(db, "spark_cast", 2, sparkCast);
    define(db, "spark_like", 2, sparkLike);
    define(db, "spark_like", 3, sparkLike);
    define(db, "spark_rlike", 2, sparkRlike);
    define(db, "regexp", 2, sqliteRegexp);
    define(db, "spark_regexp_extract", 2, sparkRegexpExtract);
    define(db, "spark_regexp_extract", 3, sparkRegexpExtract);
    define(db, "spark_regexp_replace", 3, sparkRegexpReplace);
    define(db, "spark_split", 2, sparkSplit);
    define(db, "spark_to_timestamp", 1, sparkToTimestamp);
    define(db, "spark_to_timestamp", 2, sparkToTimestamp);
    define(db, "spark_date_format", 2, sparkDateFormat);
    define(db, "spark_current_timestamp", 0, sparkCurrentTimestamp, false);
    define(db, "spark_greatest", -1, sparkExtreme<true>);
    define(db, "spark_least", -1, sparkExtreme<false>);
    define(db, "spark_concat_ws", -1, sparkConcatWs);
}

} // namespace cdc::sql
