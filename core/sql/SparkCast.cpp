#include "core/sql/SparkCast.h"

#include "core/common/Text.h"
#include "core/sql/SparkTime.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace cdc::sql {

namespace {

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

/// Spark's name of the type a stored value came with, for messages.
std::string sourceTypeName(const Value& v) {
    if (std::holds_alternative<std::int64_t>(v))
        return "BIGINT";
    if (std::holds_alternative<double>(v))
        return "DOUBLE";
    if (std::holds_alternative<Blob>(v))
        return "BINARY";
    return "STRING";
}

std::string quoted(const Value& v) {
    if (const auto* s = std::get_if<std::string>(&v))
        return "'" + *s + "'";
    if (const auto* d = std::get_if<double>(&v))
        return sparkDoubleText(*d);
    return displayText(v);
}

/// The range of an integral type, as Spark's byte / short / int / long.
std::pair<std::int64_t, std::int64_t> integralRange(DataType::Kind kind) {
    switch (kind) {
    case DataType::Kind::TinyInt:
        return {-128, 127};
    case DataType::Kind::SmallInt:
        return {-32768, 32767};
    case DataType::Kind::Int:
        return {std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()};
    default:
        return {std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()};
    }
}

/// Builds the outcome of one cast: NULL for a failure in non-ANSI mode, the error in ANSI mode.
class Caster {
public:
    Caster(const Value& in, const DataType& type, bool ansi) : m_in(in), m_type(type), m_ansi(ansi) {}

    CastResult malformed() const {
        return fail("CAST_INVALID_INPUT: the value " + quoted(m_in) + " of the type " + sourceTypeName(m_in) +
                    " cannot be cast to " + m_type.toString() + " because it is malformed");
    }
    CastResult overflow() const {
        return fail("CAST_OVERFLOW: the value " + quoted(m_in) + " of the type " + sourceTypeName(m_in) +
                    " cannot be cast to " + m_type.toString() + " due to an overflow");
    }
    CastResult integral(double d) const {
        const double t = std::trunc(d);
        // Outside BIGINT (or not a number at all): nothing to keep in either mode.
        if (std::isnan(t) || t < -9223372036854775808.0 || t >= 9223372036854775808.0)
            return m_ansi ? overflow() : CastResult{std::monostate{}, {}};
        return integral(static_cast<std::int64_t>(t));
    }
    CastResult integral(std::int64_t i) const {
        const auto [lo, hi] = integralRange(m_type.kind);
        if (m_ansi && (i < lo || i > hi))
            return overflow();
        return {i, {}};
    }

private:
    CastResult fail(std::string message) const {
        if (!m_ansi)
            return {std::monostate{}, {}};
        return {std::monostate{}, std::move(message)};
    }
    const Value& m_in;
    const DataType& m_type;
    bool m_ansi;
};

} // namespace

CastResult castValue(const Value& in, const DataType& type, bool ansi) {
    using K = DataType::Kind;
    if (isNull(in))
        return {std::monostate{}, {}};
    const Caster cast(in, type, ansi);
    const auto* text = std::get_if<std::string>(&in);
    switch (type.kind) {
    case K::Void:
        return {std::monostate{}, {}};
    case K::TinyInt:
    case K::SmallInt:
    case K::Int:
    case K::BigInt: {
        if (const auto* i = std::get_if<std::int64_t>(&in))
            return cast.integral(*i);
        if (const auto* d = std::get_if<double>(&in))
            return cast.integral(*d);
        if (!text)
            return cast.malformed();
        const std::string_view s = trim(*text);
        std::int64_t i = 0;
        const auto res = std::from_chars(s.data(), s.data() + s.size(), i);
        if (!s.empty() && res.ec == std::errc() && res.ptr == s.data() + s.size())
            return cast.integral(i);
        if (!s.empty() && res.ec == std::errc::result_out_of_range)
            return cast.overflow();
        if (auto d = parseDouble(s); d && std::isfinite(*d))
            return cast.integral(*d);
        return cast.malformed();
    }
    case K::Boolean: {
        if (const auto* i = std::get_if<std::int64_t>(&in))
            return {std::int64_t{*i != 0}, {}};
        if (const auto* d = std::get_if<double>(&in))
            return {std::int64_t{*d != 0.0}, {}};
        std::string s;
        for (char c : trim(text ? std::string_view(*text) : std::string_view()))
            s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (s == "true" || s == "t" || s == "yes" || s == "y" || s == "1")
            return {std::int64_t{1}, {}};
        if (s == "false" || s == "f" || s == "no" || s == "n" || s == "0")
            return {std::int64_t{0}, {}};
        return cast.malformed();
    }
    case K::Float:
    case K::Double:
    case K::Decimal: {
        std::optional<double> d;
        if (const auto* i = std::get_if<std::int64_t>(&in))
            d = static_cast<double>(*i);
        else if (const auto* f = std::get_if<double>(&in))
            d = *f;
        else if (text)
            d = parseDouble(*text);
        if (!d)
            return cast.malformed();
        if (type.kind == K::Decimal) {
            if (!std::isfinite(*d))
                return cast.overflow();
            *d = roundDecimal(*d, type.scale);
            // DECIMAL(p, s) holds fewer than p - s integral digits.
            if (ansi && std::fabs(*d) >= std::pow(10.0, type.precision - type.scale))
                return cast.overflow();
        } else if (type.kind == K::Float) {
            *d = static_cast<double>(static_cast<float>(*d));
        }
        return {*d, {}};
    }
    case K::String:
    case K::Variant:
    case K::Array:
    case K::Map:
    case K::Struct:
        if (const auto* d = std::get_if<double>(&in))
            return {sparkDoubleText(*d), {}};
        if (const auto* i = std::get_if<std::int64_t>(&in))
            return {std::to_string(*i), {}};
        if (const auto* b = std::get_if<Blob>(&in))
            return {std::string(b->bytes.begin(), b->bytes.end()), {}};
        return {*text, {}};
    case K::Binary: {
        if (std::holds_alternative<Blob>(in))
            return {in, {}};
        const std::string bytes = text ? *text : displayText(in);
        return {Blob{std::vector<std::uint8_t>(bytes.begin(), bytes.end())}, {}};
    }
    case K::Date:
    case K::Timestamp:
    case K::TimestampNtz: {
        std::optional<SparkTimestamp> t;
        // Numbers are epoch seconds (not for DATE), as Spark casts them.
        if (text) // a DATE takes the date a text starts with, whatever time and zone follow
            t = type.kind == K::Date ? SparkTimestamp::parseDate(*text) : SparkTimestamp::parse(*text);
        else if (const auto* i = std::get_if<std::int64_t>(&in); i && type.kind != K::Date)
            t = SparkTimestamp::fromEpochSeconds(static_cast<double>(*i));
        else if (const auto* d = std::get_if<double>(&in); d && type.kind != K::Date)
            t = SparkTimestamp::fromEpochSeconds(*d);
        if (!t)
            return cast.malformed();
        return {type.kind == K::Date ? t->toDate() : t->toStorage(), {}};
    }
    }
    return {std::monostate{}, {}};
}

} // namespace cdc::sql
