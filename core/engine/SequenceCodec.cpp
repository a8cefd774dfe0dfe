#include "core/engine/SequenceCodec.h"

#include "core/storage/Database.h"

#include <sqlite3.h>

#include <cctype>
#include <cstdint>
#include <cstring>

namespace cdc::engine {

namespace {

void appendBigEndian(std::string& out, std::uint64_t v) {
    for (int shift = 56; shift >= 0; shift -= 8)
        out.push_back(static_cast<char>((v >> shift) & 0xFF));
}

// IEEE-754 bit trick: flipping the sign bit of positives and every bit of negatives makes the unsigned
// big-endian bytes sort like the doubles.
std::uint64_t orderedDouble(double d) {
    if (d == 0.0)
        d = 0.0; // -0.0 equals 0.0 in Spark
    std::uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    return (bits & 0x8000000000000000ULL) ? ~bits : (bits | 0x8000000000000000ULL);
}

std::uint64_t orderedInt(std::int64_t v) {
    return static_cast<std::uint64_t>(v) ^ 0x8000000000000000ULL;
}

void appendEscaped(std::string& out, const unsigned char* p, int n) {
    for (int i = 0; i < n; ++i) {
        out.push_back(static_cast<char>(p[i]));
        if (p[i] == 0)
            out.push_back(static_cast<char>(0xFF));
    }
    out.push_back('\0');
    out.push_back('\0');
}

// `exactNumbers`: an integral REAL encodes like the equal INTEGER, so that the bytes compare equal exactly
// where SQLite's numeric comparison does (the stored STRUCT encoding keeps the original form).
void appendField(std::string& out, sqlite3_value* v, bool exactNumbers) {
    switch (sqlite3_value_type(v)) {
    case SQLITE_NULL:
        out.push_back('\x01');
        break; // NULL fields sort first
    case SQLITE_INTEGER: {
        std::int64_t x = sqlite3_value_int64(v);
        out.push_back('\x02');
        appendBigEndian(out, orderedDouble(static_cast<double>(x)));
        appendBigEndian(out, orderedInt(x));
        break;
    }
    case SQLITE_FLOAT: {
        double x = sqlite3_value_double(v);
        std::int64_t asInt = 0;
        if (exactNumbers && x >= -9.2e18 && x <= 9.2e18 &&
            static_cast<double>(static_cast<std::int64_t>(x)) == x)
            asInt = static_cast<std::int64_t>(x);
        out.push_back('\x02');
        appendBigEndian(out, orderedDouble(x));
        appendBigEndian(out, orderedInt(asInt));
        break;
    }
    case SQLITE_TEXT:
        out.push_back('\x03');
        appendEscaped(out, sqlite3_value_text(v), sqlite3_value_bytes(v));
        break;
    default:
        out.push_back('\x04');
        appendEscaped(out, static_cast<const unsigned char*>(sqlite3_value_blob(v)), sqlite3_value_bytes(v));
        break;
    }
}

void seqKeyFunc(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
    std::string out;
    for (int i = 0; i < argc; ++i)
        appendField(out, argv[i], false);
    sqlite3_result_blob64(ctx, out.data(), out.size(), SQLITE_TRANSIENT);
}

void tsKeyFunc(sqlite3_context* ctx, int, sqlite3_value** argv) {
    if (sqlite3_value_type(argv[0]) != SQLITE_TEXT) {
        sqlite3_result_value(ctx, argv[0]);
        return;
    }
    std::string text(reinterpret_cast<const char*>(sqlite3_value_text(argv[0])),
                     static_cast<std::size_t>(sqlite3_value_bytes(argv[0])));
    std::string canon = canonicalTimestamp(text);
    sqlite3_result_text64(ctx, canon.data(), canon.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
}

bool digits(const std::string& s, std::size_t from, std::size_t count) {
    if (from + count > s.size())
        return false;
    for (std::size_t i = from; i < from + count; ++i)
        if (!std::isdigit(static_cast<unsigned char>(s[i])))
            return false;
    return true;
}

} // namespace

bool validSequenceKey(std::string_view bytes) {
    std::size_t i = 0;
    while (i < bytes.size()) {
        const char tag = bytes[i++];
        if (tag == '\x01')
            continue;
        if (tag == '\x02') {
            if (bytes.size() - i < 16)
                return false;
            i += 16;
            continue;
        }
        if (tag != '\x03' && tag != '\x04')
            return false;
        for (;;) { // escaped bytes: a 0 inside is followed by 0xFF, the end is 0 0
            if (i >= bytes.size())
                return false;
            if (bytes[i++] != '\0')
                continue;
            if (i >= bytes.size())
                return false;
            const char next = bytes[i++];
            if (next == '\0')
                break;
            if (next != '\xFF')
                return false;
        }
    }
    return !bytes.empty();
}

std::string canonicalTimestamp(const std::string& text) {
    // YYYY-MM-DD[( |T)HH:MM[:SS[.f+]]][Z|+00:00]
    if (!digits(text, 0, 4) || text.size() < 10 || text[4] != '-' || !digits(text, 5, 2) || text[7] != '-' ||
        !digits(text, 8, 2))
        return text;
    std::string out = text.substr(0, 10);
    std::string hh = "00", mm = "00", ss = "00", frac;
    std::size_t i = 10;
    if (i < text.size() && (text[i] == ' ' || text[i] == 'T')) {
        if (!digits(text, i + 1, 2) || i + 3 >= text.size() || text[i + 3] != ':' || !digits(text, i + 4, 2))
            return text;
        hh = text.substr(i + 1, 2);
        mm = text.substr(i + 4, 2);
        i += 6;
        if (i < text.size() && text[i] == ':') {
            if (!digits(text, i + 1, 2))
                return text;
            ss = text.substr(i + 1, 2);
            i += 3;
            if (i < text.size() && text[i] == '.') {
                ++i;
                while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
                    frac.push_back(text[i++]);
            }
        }
    }
    std::string rest = text.substr(i);
    if (!(rest.empty() || rest == "Z" || rest == "+00:00" || rest == "UTC"))
        return text;
    frac.resize(6, '0');
    return out + " " + hh + ":" + mm + ":" + ss + "." + frac;
}

void registerSequenceFunctions(sqlite3* db) {
    const int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
    sqlite3_create_function_v2(db, "cdc_seq_key", -1, flags, nullptr, seqKeyFunc, nullptr, nullptr, nullptr);
    sqlite3_create_function_v2(db, "cdc_ts_key", 1, flags, nullptr, tsKeyFunc, nullptr, nullptr, nullptr);
}

std::string encodeFieldSql(const std::string& sql, const DataType& type) {
    if (type.kind == DataType::Kind::Timestamp || type.kind == DataType::Kind::TimestampNtz)
        return "cdc_ts_key(" + sql + ")";
    return "(" + sql + ")";
}

std::string encodeSequenceSql(const std::vector<std::string>& fieldSql, const std::vector<DataType>& types,
                              bool isStruct) {
    if (!isStruct)
        return encodeFieldSql(fieldSql.at(0), types.at(0));
    std::string out = "cdc_seq_key(";
    for (std::size_t i = 0; i < fieldSql.size(); ++i)
        out += (i ? ", " : "") + encodeFieldSql(fieldSql[i], types[i]);
    return out + ")";
}

std::string displaySequenceSql(const std::vector<std::string>& fieldSql,
                               const std::vector<std::string>& names, bool isStruct) {
    if (!isStruct)
        return "(" + fieldSql.at(0) + ")";
    std::string out = "json_object(";
    for (std::size_t i = 0; i < fieldSql.size(); ++i)
        out += (i ? ", " : "") + storage::quoteString(names[i]) + ", (" + fieldSql[i] + ")";
    return out + ")";
}

} // namespace cdc::engine
