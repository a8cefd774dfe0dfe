// SQLite functions that give the translated SQL Spark semantics where SQLite differs.
#include "core/sql/SqlApi.h"
#include "core/sql/TypeInference.h"

#include "core/common/DataType.h"
#include "core/common/ResultSet.h"
#include "core/sql/SparkCast.h"
#include "core/sql/SparkRegex.h"
#include "core/sql/SparkTime.h"

#include <sqlite3.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

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

void resultError(sqlite3_context* ctx, const Diagnostic& error) {
    sqlite3_result_error(ctx, error.message.c_str(), static_cast<int>(error.message.size()));
}

const DataType* cachedType(std::string_view spelling) {
    thread_local std::unordered_map<std::string, std::optional<DataType>> cache;
    auto [it, inserted] = cache.try_emplace(std::string(spelling));
    if (inserted)
        it->second = DataType::parse(spelling);
    return it->second ? &*it->second : nullptr;
}

Value valueOf(sqlite3_value* v) {
    switch (sqlite3_value_type(v)) {
    case SQLITE_INTEGER:
        return static_cast<std::int64_t>(sqlite3_value_int64(v));
    case SQLITE_FLOAT:
        return sqlite3_value_double(v);
    case SQLITE_TEXT:
        return std::string(textArg(v));
    case SQLITE_BLOB: {
        const auto* bytes = static_cast<const std::uint8_t*>(sqlite3_value_blob(v));
        return Blob{std::vector<std::uint8_t>(bytes, bytes + sqlite3_value_bytes(v))};
    }
    default:
        return std::monostate{};
    }
}

void resultValue(sqlite3_context* ctx, const Value& value) {
    if (const auto* i = std::get_if<std::int64_t>(&value))
        sqlite3_result_int64(ctx, *i);
    else if (const auto* d = std::get_if<double>(&value))
        sqlite3_result_double(ctx, *d);
    else if (const auto* s = std::get_if<std::string>(&value))
        resultText(ctx, *s);
    else if (const auto* b = std::get_if<Blob>(&value))
        sqlite3_result_blob64(ctx, b->bytes.data(), b->bytes.size(), SQLITE_TRANSIENT);
    else
        sqlite3_result_null(ctx);
}

/// spark_cast(value, 'TYPE'): Spark's (non-ANSI) CAST into the storage form of DataType.h; invalid -> NULL.
void sparkCast(sqlite3_context* ctx, int, sqlite3_value** argv) {
    const DataType* type = cachedType(textArg(argv[1]));
    if (!type) {
        sqlite3_result_error(ctx, "spark_cast: unknown type", -1);
        return;
    }
    resultValue(ctx, castValue(valueOf(argv[0]), *type, false).value);
}

/// A cast's value as the function's result, or its error (Spark's class first) with `context` in front.
void resultCast(sqlite3_context* ctx, const CastResult& cast, const std::string& context) {
    if (!cast.ok()) {
        const std::string message = context + cast.error;
        sqlite3_result_error(ctx, message.c_str(), static_cast<int>(message.size()));
        return;
    }
    resultValue(ctx, cast.value);
}

/// spark_store_cast(value, 'TYPE', column, row): the ANSI cast of a value written into a source table's
/// column; a value that does not convert fails the statement, naming the row and the column.
void sparkStoreCast(sqlite3_context* ctx, int, sqlite3_value** argv) {
    const DataType* type = cachedType(textArg(argv[1]));
    if (!type) {
        sqlite3_result_error(ctx, "spark_store_cast: unknown type", -1);
        return;
    }
    const std::string where = "row " + std::to_string(sqlite3_value_int64(argv[3])) + ", column " +
                              std::string(textArg(argv[2])) + ": ";
    // Spark stores NaN in a FLOAT or DOUBLE column; SQLite turns it into NULL. Refused, not silently NULL.
    CastResult cast = castValue(valueOf(argv[0]), *type, true);
    if (const auto* d = std::get_if<double>(&cast.value); d && std::isnan(*d))
        cast.error =
            "UNSUPPORTED_NAN: the value NaN cannot be stored (SQLite, the simulator's storage, has no "
            "NaN and would keep NULL); use NULL or a number";
    resultCast(ctx, cast, where);
}

/// spark_implicit_cast(value, 'TYPE'): Spark's implicit cast of a STRING operand to the type it meets (ANSI:
/// a text that does not convert fails with CAST_INVALID_INPUT); values that are not text pass unchanged.
void sparkImplicitCast(sqlite3_context* ctx, int, sqlite3_value** argv) {
    const DataType* type = cachedType(textArg(argv[1]));
    if (sqlite3_value_type(argv[0]) != SQLITE_TEXT || !type) {
        sqlite3_result_value(ctx, argv[0]);
        return;
    }
    resultCast(ctx, castValue(valueOf(argv[0]), *type, true), "");
}

/// spark_coerce_to(text, other): a string literal meeting an operand of unknown type takes that operand's
/// kind at run time: a number beside a number (BIGINT beside an integer, DOUBLE beside a real), else
/// unchanged.
void sparkCoerceTo(sqlite3_context* ctx, int, sqlite3_value** argv) {
    const int other = sqlite3_value_type(argv[1]);
    if (sqlite3_value_type(argv[0]) != SQLITE_TEXT || (other != SQLITE_INTEGER && other != SQLITE_FLOAT)) {
        sqlite3_result_value(ctx, argv[0]);
        return;
    }
    const DataType to =
        DataType::of(other == SQLITE_INTEGER ? DataType::Kind::BigInt : DataType::Kind::Double);
    resultCast(ctx, castValue(valueOf(argv[0]), to, true), "");
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

/// The function's regular expression (argument `index`), compiled once per statement: SQLite keeps it as
/// auxdata while the pattern argument is a constant, so a scan compiles it once, not once per row.
const SparkRegex* regexArg(sqlite3_context* ctx, sqlite3_value** argv, int index, const char* function) {
    if (auto* cached = static_cast<SparkRegex*>(sqlite3_get_auxdata(ctx, index)))
        return cached;
    auto compiled = SparkRegex::compile(textArg(argv[index]), function);
    if (!compiled.ok()) {
        resultError(ctx, compiled.error());
        return nullptr;
    }
    SparkRegex* regex = compiled->release();
    sqlite3_set_auxdata(ctx, index, regex, [](void* p) { delete static_cast<SparkRegex*>(p); });
    // The regex lives until the call returns (a pattern that varies by row) or the statement ends (a
    // constant one); SQLite has deleted it already only when it ran out of memory.
    if (sqlite3_get_auxdata(ctx, index) != regex) {
        sqlite3_result_error_nomem(ctx);
        return nullptr;
    }
    return regex;
}

/// Runs `f(regex)` with the pattern of argument `patternIndex` and puts its Result as the function's
/// result (`put` converts the value), or raises its error. NULL in any argument is NULL.
template <class F, class Put>
void withRegex(sqlite3_context* ctx, int argc, sqlite3_value** argv, int patternIndex, const char* function,
               F&& f, Put&& put) {
    for (int i = 0; i < argc; ++i)
        if (isNullArg(argv[i])) {
            sqlite3_result_null(ctx);
            return;
        }
    const SparkRegex* regex = regexArg(ctx, argv, patternIndex, function);
    if (!regex)
        return;
    auto result = f(*regex);
    if (result.ok())
        put(result.value());
    else
        resultError(ctx, result.error());
}

void sparkRlike(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
    withRegex(
        ctx, argc, argv, 1, "rlike", [&](const SparkRegex& re) { return re.find(textArg(argv[0])); },
        [&](bool found) { sqlite3_result_int(ctx, found); });
}

/// regexp(pattern, s): backs SQLite's `s REGEXP pattern` operator.
void sqliteRegexp(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
    withRegex(
        ctx, argc, argv, 0, "regexp", [&](const SparkRegex& re) { return re.find(textArg(argv[1])); },
        [&](bool found) { sqlite3_result_int(ctx, found); });
}

void sparkRegexpExtract(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
    const sqlite3_int64 group = argc > 2 ? sqlite3_value_int64(argv[2]) : 1;
    withRegex(
        ctx, argc, argv, 1, "regexp_extract",
        [&](const SparkRegex& re) { return re.extract(textArg(argv[0]), group); },
        [&](const std::string& s) { resultText(ctx, s); });
}

void sparkRegexpReplace(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
    withRegex(
        ctx, argc, argv, 1, "regexp_replace",
        [&](const SparkRegex& re) { return re.replaceAll(textArg(argv[0]), textArg(argv[2])); },
        [&](const std::string& s) { resultText(ctx, s); });
}

/// split(s, pattern): the pieces as a JSON array (the simulator's ARRAY<STRING>).
void sparkSplit(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
    withRegex(
        ctx, argc, argv, 1, "split", [&](const SparkRegex& re) { return re.split(textArg(argv[0])); },
        [&](const std::vector<std::string>& pieces) {
            std::string json = "[";
            for (std::size_t i = 0; i < pieces.size(); ++i)
                json += (i ? "," : "") + jsonString(pieces[i]);
            resultText(ctx, json + "]");
        });
}

/// repeat(s, n): s n times (none for n <= 0).
void sparkRepeat(sqlite3_context* ctx, int, sqlite3_value** argv) {
    if (isNullArg(argv[0]) || isNullArg(argv[1])) {
        sqlite3_result_null(ctx);
        return;
    }
    const std::string_view s = textArg(argv[0]);
    const sqlite3_int64 n = sqlite3_value_int64(argv[1]);
    if (n > 0 && static_cast<std::uint64_t>(n) * s.size() > 1'000'000'000) { // SQLite's default string limit
        sqlite3_result_error_toobig(ctx);
        return;
    }
    std::string out;
    out.reserve(n > 0 ? static_cast<std::size_t>(n) * s.size() : 0);
    for (sqlite3_int64 i = 0; i < n; ++i)
        out += s;
    resultText(ctx, out);
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

// spark_add_interval(value, months, days, micros[, 'DATE' | 'TIMESTAMP']): a date or timestamp plus an
// interval. Without the last argument the result is a DATE when the value is a date (as stored: ten
// characters) and the interval has no time part, as Spark types DATE + INTERVAL, else a TIMESTAMP.
void sparkAddInterval(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
    for (int i = 0; i < 4; ++i)
        if (isNullArg(argv[i])) {
            sqlite3_result_null(ctx);
            return;
        }
    const std::string_view text = textArg(argv[0]);
    const bool isDate = text.size() == 10;
    auto t = isDate ? SparkTimestamp::parseDate(text) : SparkTimestamp::parse(text);
    if (!t) {
        const std::string message = "CAST_INVALID_INPUT: the value '" + std::string(text) +
                                    "' cannot be cast to " + (isDate ? "DATE" : "TIMESTAMP") +
                                    " to add an interval to it";
        sqlite3_result_error(ctx, message.c_str(), -1);
        return;
    }
    const std::int64_t micros = sqlite3_value_int64(argv[3]);
    const auto sum = t->plus(sqlite3_value_int64(argv[1]), sqlite3_value_int64(argv[2]), micros);
    if (!sum) {
        const std::string message = "DATETIME_OVERFLOW: Datetime operation overflow: '" + std::string(text) +
                                    "' plus the interval is out of the range of a TIMESTAMP";
        sqlite3_result_error(ctx, message.c_str(), -1);
        return;
    }
    const std::string_view as = argc > 4 ? textArg(argv[4]) : std::string_view();
    const bool date = as == "DATE" || (as.empty() && isDate && micros == 0);
    resultText(ctx, date ? sum->toDate() : sum->toStorage());
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

// `a ^ b` (bitwise exclusive or of the operands as integers; NULL if either is): SQLite has no operator.
void sparkBitXor(sqlite3_context* ctx, int, sqlite3_value** argv) {
    if (isNullArg(argv[0]) || isNullArg(argv[1])) {
        sqlite3_result_null(ctx);
        return;
    }
    sqlite3_result_int64(ctx, sqlite3_value_int64(argv[0]) ^ sqlite3_value_int64(argv[1]));
}

void define(sqlite3* db, const char* name, int argc, void (*fn)(sqlite3_context*, int, sqlite3_value**),
            bool deterministic = true) {
    int flags = SQLITE_UTF8 | SQLITE_INNOCUOUS | (deterministic ? SQLITE_DETERMINISTIC : 0);
    sqlite3_create_function_v2(db, name, argc, flags, nullptr, fn, nullptr, nullptr, nullptr);
}

} // namespace

void registerSparkFunctions(sqlite3* db) {
    define(db, "spark_cast", 2, sparkCast);
    define(db, "spark_store_cast", 4, sparkStoreCast);
    define(db, "spark_implicit_cast", 2, sparkImplicitCast);
    define(db, "spark_coerce_to", 2, sparkCoerceTo);
    define(db, "spark_like", 2, sparkLike);
    define(db, "spark_like", 3, sparkLike);
    define(db, "spark_rlike", 2, sparkRlike);
    define(db, "regexp", 2, sqliteRegexp);
    define(db, "spark_regexp_extract", 2, sparkRegexpExtract);
    define(db, "spark_regexp_extract", 3, sparkRegexpExtract);
    define(db, "spark_regexp_replace", 3, sparkRegexpReplace);
    define(db, "spark_split", 2, sparkSplit);
    define(db, "spark_repeat", 2, sparkRepeat);
    define(db, "spark_to_timestamp", 1, sparkToTimestamp);
    define(db, "spark_to_timestamp", 2, sparkToTimestamp);
    define(db, "spark_date_format", 2, sparkDateFormat);
    define(db, "spark_add_interval", 4, sparkAddInterval);
    define(db, "spark_add_interval", 5, sparkAddInterval);
    define(db, "spark_current_timestamp", 0, sparkCurrentTimestamp, false);
    define(db, "spark_greatest", -1, sparkExtreme<true>);
    define(db, "spark_least", -1, sparkExtreme<false>);
    define(db, "spark_concat_ws", -1, sparkConcatWs);
    define(db, "spark_bit_xor", 2, sparkBitXor);
    registerSparkWindowFunctions(db);
}

void installSparkFunctions() {
    // A function-local static: added once per process however many entry points call this, and
    // thread-safe. Not a namespace-scope initializer: the linker drops those with their unreferenced
    // object file when the library is static.
    static const bool installed = (storage::Database::addConnectionSetup(registerSparkFunctions),
                                   pipeline::setOutputTypeInference(inferOutputTypes), true);
    (void)installed;
}

} // namespace cdc::sql
