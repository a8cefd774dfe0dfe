// Casting goes through sql::castValue, the cast INSERT into a source table uses, so an imported value is
// stored exactly as the same value written in source SQL would be.
#include "core/feeds/FeedMapping.h"

#include "core/common/Text.h"
#include "core/sql/SparkCast.h"

#include <charconv>
#include <set>

namespace cdc::feeds {

namespace {

bool isOperationName(std::string_view name) {
    for (const char* n : {"operation", "op", "change_type", "_change_type", "operation_type", "optype"})
        if (equalsIgnoreCase(name, n))
            return true;
    return false;
}

bool isSequenceName(std::string_view name) {
    return toLower(name).starts_with("seq") || equalsIgnoreCase(name, "_commit_version");
}

enum class Kind { None, Boolean, BigInt, Double, String };

Kind kindOf(const Value& v) {
    if (std::holds_alternative<std::int64_t>(v))
        return Kind::BigInt;
    if (std::holds_alternative<double>(v))
        return Kind::Double;
    if (const auto* s = std::get_if<std::string>(&v)) {
        if (*s == "true" || *s == "false")
            return Kind::Boolean;
        const char* end = s->data() + s->size();
        std::int64_t i = 0;
        if (const auto read = std::from_chars(s->data(), end, i); !s->empty() && read.ptr == end)
            return read.ec == std::errc() ? Kind::BigInt : Kind::String; // too long a number stays exact

        double d = 0;
        if (!s->empty() && std::from_chars(s->data(), end, d).ptr == end)
            return Kind::Double;
        return Kind::String;
    }
    if (std::holds_alternative<Blob>(v))
        return Kind::String;
    return Kind::None;
}

Kind widen(Kind a, Kind b) {
    if (a == Kind::None)
        return b;
    if (b == Kind::None || a == b)
        return a;
    if ((a == Kind::BigInt && b == Kind::Double) || (a == Kind::Double && b == Kind::BigInt))
        return Kind::Double;
    return Kind::String;
}

} // namespace

DataType inferType(const std::vector<const Value*>& values) {
    Kind kind = Kind::None;
    for (const Value* v : values)
        if (v)
            kind = widen(kind, kindOf(*v));
    switch (kind) {
    case Kind::Boolean:
        return DataType::of(DataType::Kind::Boolean);
    case Kind::BigInt:
        return DataType::of(DataType::Kind::BigInt);
    case Kind::Double:
        return DataType::of(DataType::Kind::Double);
    default:
        return DataType::of(DataType::Kind::String);
    }
}

std::vector<std::string> fieldNames(const std::vector<FeedRecord>& records) {
    std::vector<std::string> names;
    std::set<std::string> seen;
    for (const auto& r : records)
        for (const auto& [name, value] : r.fields)
            if (seen.insert(toLower(name)).second)
                names.push_back(name);
    return names;
}

FeedMapping FeedMapping::forTable(const storage::TableInfo& table, const std::vector<std::string>& fields,
                                  FeedFormat format) {
    FeedMapping m;
    bool operationTaken = false;
    bool sequenceTaken = false;
    for (const auto& column : table.columns) {
        FeedColumn c{column.name, column.type, ColumnSource::Null, {}};
        for (const auto& f : fields)
            if (equalsIgnoreCase(f, column.name)) {
                c.source = ColumnSource::Field;
                c.field = f;
            }
        if (c.source == ColumnSource::Null && hasOperation(format)) {
            if (!operationTaken && isOperationName(column.name)) {
                c.source = ColumnSource::Operation;
                operationTaken = true;
            } else if (!sequenceTaken && isSequenceName(column.name)) {
                c.source = ColumnSource::Sequence;
                sequenceTaken = true;
            }
        }
        m.columns.push_back(std::move(c));
    }
    return m;
}

FeedMapping FeedMapping::forNewTable(const std::vector<FeedRecord>& sample, FeedFormat format,
                                     const std::string& operationColumn, const std::string& sequenceColumn) {
    FeedMapping m;
    for (const auto& name : fieldNames(sample)) {
        std::vector<const Value*> values;
        for (const auto& r : sample)
            values.push_back(r.field(name));
        m.columns.push_back({name, inferType(values), ColumnSource::Field, name});
    }
    if (hasOperation(format)) {
        m.columns.push_back(
            {operationColumn, DataType::of(DataType::Kind::String), ColumnSource::Operation, {}});
        std::vector<const Value*> sequences;
        for (const auto& r : sample)
            sequences.push_back(&r.sequence);
        m.columns.push_back({sequenceColumn, inferType(sequences), ColumnSource::Sequence, {}});
    }
    return m;
}

Status FeedMapping::check() const {
    std::set<std::string> names;
    for (const auto& c : columns) {
        if (c.name.empty())
            return Diagnostic::error("MAPPING", "a column has no name");
        if (!names.insert(toLower(c.name)).second)
            return Diagnostic::error("MAPPING", "the column '" + c.name + "' is mapped twice");
        if (c.source == ColumnSource::Field && c.field.empty())
            return Diagnostic::error("MAPPING", "the column '" + c.name + "' takes a field but names none");
    }
    if (columns.empty())
        return Diagnostic::error("MAPPING", "no column is mapped");
    return {};
}

Result<Row> FeedMapping::row(const FeedRecord& record, const std::string& file) const {
    Row row;
    row.reserve(columns.size());
    for (const auto& c : columns) {
        Value value;
        switch (c.source) {
        case ColumnSource::Field:
            if (const Value* v = record.field(c.field))
                value = *v;
            break;
        case ColumnSource::Operation:
            // Plain files carry no operation: each record is an insert of its row.
            value = operationText(record.operation.value_or(Operation::Insert));
            break;
        case ColumnSource::Sequence:
            value = record.sequence;
            break;
        case ColumnSource::Null:
            break;
        }
        auto cast = sql::castValue(value, c.type, true);
        if (!cast.ok()) {
            SourceLocation where{file, static_cast<int>(record.line), 1,
                                 static_cast<std::size_t>(record.offset), 0};
            return Diagnostic::error("FEED_RECORD",
                                     "line " + std::to_string(record.line) + ", byte " +
                                         std::to_string(record.offset) + ": column '" + c.name +
                                         "': " + cast.error,
                                     where);
        }
        row.push_back(std::move(cast.value));
    }
    return row;
}

} // namespace cdc::feeds
