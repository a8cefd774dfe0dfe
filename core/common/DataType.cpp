#include "core/common/DataType.h"
#include "core/common/Text.h"

#include <algorithm>
#include <cctype>

namespace cdc {

namespace {

/// Splits "a, STRUCT<x: INT, y: INT>, c" at top-level commas.
std::vector<std::string_view> splitTopLevel(std::string_view s) {
    std::vector<std::string_view> parts;
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        char c = s[i];
        if (c == '<' || c == '(')
            ++depth;
        else if (c == '>' || c == ')')
            --depth;
        else if (c == ',' && depth == 0) {
            parts.push_back(trim(s.substr(start, i - start)));
            start = i + 1;
        }
    }
    parts.push_back(trim(s.substr(start)));
    return parts;
}

struct SimpleName {
    const char* name;
    DataType::Kind kind;
};

constexpr SimpleName kSimpleNames[] = {
    {"VOID", DataType::Kind::Void},
    {"NULL", DataType::Kind::Void},
    {"BOOLEAN", DataType::Kind::Boolean},
    {"BOOL", DataType::Kind::Boolean},
    {"TINYINT", DataType::Kind::TinyInt},
    {"BYTE", DataType::Kind::TinyInt},
    {"SMALLINT", DataType::Kind::SmallInt},
    {"SHORT", DataType::Kind::SmallInt},
    {"INT", DataType::Kind::Int},
    {"INTEGER", DataType::Kind::Int},
    {"BIGINT", DataType::Kind::BigInt},
    {"LONG", DataType::Kind::BigInt},
    {"FLOAT", DataType::Kind::Float},
    {"REAL", DataType::Kind::Float},
    {"DOUBLE", DataType::Kind::Double},
    {"STRING", DataType::Kind::String},
    {"TEXT", DataType::Kind::String},
    {"BINARY", DataType::Kind::Binary},
    {"DATE", DataType::Kind::Date},
    {"TIMESTAMP", DataType::Kind::Timestamp},
    {"TIMESTAMP_LTZ", DataType::Kind::Timestamp},
    {"TIMESTAMP_NTZ", DataType::Kind::TimestampNtz},
    {"VARIANT", DataType::Kind::Variant},
};

} // namespace

DataType DataType::arrayOf(DataType element) {
    DataType t = of(Kind::Array);
    t.children.push_back(std::move(element));
    return t;
}

DataType DataType::structOf(std::vector<std::string> names, std::vector<DataType> types) {
    DataType t = of(Kind::Struct);
    t.fieldNames = std::move(names);
    t.children = std::move(types);
    return t;
}

bool DataType::isIntegral() const {
    return kind == Kind::TinyInt || kind == Kind::SmallInt || kind == Kind::Int || kind == Kind::BigInt;
}

bool DataType::isNumeric() const {
    return isIntegral() || kind == Kind::Float || kind == Kind::Double || kind == Kind::Decimal;
}

bool DataType::isOrderable() const {
    if (kind == Kind::Map || kind == Kind::Variant)
        return false;
    return std::all_of(children.begin(), children.end(), [](const DataType& c) { return c.isOrderable(); });
}

std::string DataType::toString() const {
    switch (kind) {
    case Kind::Void:
        return "VOID";
    case Kind::Boolean:
        return "BOOLEAN";
    case Kind::TinyInt:
        return "TINYINT";
    case Kind::SmallInt:
        return "SMALLINT";
    case Kind::Int:
        return "INT";
    case Kind::BigInt:
        return "BIGINT";
    case Kind::Float:
        return "FLOAT";
    case Kind::Double:
        return "DOUBLE";
    case Kind::Decimal:
        return "DECIMAL(" + std::to_string(precision) + "," + std::to_string(scale) + ")";
    case Kind::String:
        return "STRING";
    case Kind::Binary:
        return "BINARY";
    case Kind::Date:
        return "DATE";
    case Kind::Timestamp:
        return "TIMESTAMP";
    case Kind::TimestampNtz:
        return "TIMESTAMP_NTZ";
    case Kind::Variant:
        return "VARIANT";
    case Kind::Array:
        return "ARRAY<" + (children.empty() ? std::string("VOID") : children[0].toString()) + ">";
    case Kind::Map:
        return "MAP<" + (children.size() == 2 ? children[0].toString() + ", " + children[1].toString() : "") +
               ">";
    case Kind::Struct: {
        std::string s = "STRUCT<";
        for (std::size_t i = 0; i < children.size(); ++i) {
            if (i)
                s += ", ";
            s += (i < fieldNames.size() ? fieldNames[i] : "col" + std::to_string(i + 1)) + ": " +
                 children[i].toString();
        }
        return s + ">";
    }
    }
    return "VOID";
}

std::optional<DataType> DataType::parse(std::string_view text) {
    text = trim(text);
    std::size_t open = text.find_first_of("<(");
    std::string head = toUpper(trim(text.substr(0, open)));
    if (open == std::string_view::npos) {
        for (const auto& simple : kSimpleNames)
            if (head == simple.name)
                return of(simple.kind);
        if (head == "DECIMAL" || head == "DEC" || head == "NUMERIC")
            return of(Kind::Decimal);
        return std::nullopt;
    }
    char closeChar = text[open] == '<' ? '>' : ')';
    if (text.back() != closeChar)
        return std::nullopt;
    std::string_view inner = trim(text.substr(open + 1, text.size() - open - 2));
    if (closeChar == ')') {
        if (head == "DECIMAL" || head == "DEC" || head == "NUMERIC") {
            auto parts = splitTopLevel(inner);
            DataType t = of(Kind::Decimal);
            try {
                t.precision = std::stoi(std::string(parts[0]));
                t.scale = parts.size() > 1 ? std::stoi(std::string(parts[1])) : 0;
            } catch (...) {
                return std::nullopt;
            }
            return t;
        }
        if (head == "VARCHAR" || head == "CHAR")
            return of(Kind::String);
        return std::nullopt;
    }
    if (head == "ARRAY") {
        auto element = parse(inner);
        if (!element)
            return std::nullopt;
        return arrayOf(*element);
    }
    if (head == "MAP") {
        auto parts = splitTopLevel(inner);
        if (parts.size() != 2)
            return std::nullopt;
        auto k = parse(parts[0]), v = parse(parts[1]);
        if (!k || !v)
            return std::nullopt;
        DataType t = of(Kind::Map);
        t.children = {*k, *v};
        return t;
    }
    if (head == "STRUCT") {
        std::vector<std::string> names;
        std::vector<DataType> types;
        if (!inner.empty()) {
            for (auto field : splitTopLevel(inner)) {
                std::size_t sep = field.find_first_of(": ");
                if (sep == std::string_view::npos)
                    return std::nullopt;
                std::string_view name = trim(field.substr(0, sep));
                std::string_view rest = trim(field.substr(sep + 1));
                if (!rest.empty() && rest.front() == ':')
                    rest = trim(rest.substr(1));
                if (name.size() >= 2 && name.front() == '`' && name.back() == '`')
                    name = name.substr(1, name.size() - 2);
                auto ft = parse(rest);
                if (!ft)
                    return std::nullopt;
                names.emplace_back(name);
                types.push_back(*ft);
            }
        }
        return structOf(std::move(names), std::move(types));
    }
    return std::nullopt;
}

std::string DataType::sqliteAffinity() const {
    if (isIntegral() || kind == Kind::Boolean)
        return "INTEGER";
    if (kind == Kind::Float || kind == Kind::Double || kind == Kind::Decimal)
        return "REAL";
    if (kind == Kind::Binary)
        return "BLOB";
    if (kind == Kind::Void)
        return "";
    return "TEXT";
}

std::optional<DataType> commonType(const DataType& a, const DataType& b) {
    using K = DataType::Kind;
    if (a == b)
        return a;
    if (a.kind == K::Void)
        return b;
    if (b.kind == K::Void)
        return a;
    auto rank = [](K k) {
        switch (k) {
        case K::TinyInt:
            return 1;
        case K::SmallInt:
            return 2;
        case K::Int:
            return 3;
        case K::BigInt:
            return 4;
        case K::Decimal:
            return 5;
        case K::Float:
            return 6;
        case K::Double:
            return 7;
        default:
            return 0;
        }
    };
    if (a.isNumeric() && b.isNumeric()) {
        if (a.kind == K::Decimal && b.kind == K::Decimal) {
            DataType t = DataType::of(K::Decimal);
            t.scale = std::max(a.scale, b.scale);
            t.precision = std::min(38, std::max(a.precision - a.scale, b.precision - b.scale) + t.scale);
            return t;
        }
        return rank(a.kind) >= rank(b.kind) ? a : b;
    }
    if (a.isTemporal() && b.isTemporal())
        return DataType::of(K::Timestamp);
    if (a.kind == K::String || b.kind == K::String)
        return DataType::of(K::String);
    if (a.kind == K::Array && b.kind == K::Array) {
        auto e = commonType(a.children.at(0), b.children.at(0));
        if (!e)
            return std::nullopt;
        return DataType::arrayOf(*e);
    }
    return std::nullopt;
}

} // namespace cdc
