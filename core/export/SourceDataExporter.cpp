#include "core/export/SourceDataExporter.h"

#include "core/common/ResultSet.h"
#include "core/common/Text.h"
#include "core/sql/Printer.h"
#include "core/sql/SqlApi.h"
#include "core/storage/Catalog.h"

#include <algorithm>
#include <cctype>

namespace cdc::exporting {

namespace {

/// A Spark SQL literal of a stored value of the column's type.
std::string literal(const Value& v, const DataType& type) {
    if (isNull(v))
        return "NULL";
    std::string text = displayValue(v, type);
    switch (type.kind) {
    case DataType::Kind::Boolean:
        return toUpper(text);
    case DataType::Kind::TinyInt:
    case DataType::Kind::SmallInt:
    case DataType::Kind::Int:
    case DataType::Kind::BigInt:
    case DataType::Kind::Decimal:
        return text;
    case DataType::Kind::Float:
    case DataType::Kind::Double:
        return "CAST(" + sql::Printer::stringLiteral(text) + " AS " + type.toString() + ")";
    case DataType::Kind::Date:
        return "DATE " + sql::Printer::stringLiteral(text);
    case DataType::Kind::Timestamp:
        return "TIMESTAMP " + sql::Printer::stringLiteral(text);
    case DataType::Kind::TimestampNtz:
        return "TIMESTAMP_NTZ " + sql::Printer::stringLiteral(text);
    case DataType::Kind::String:
        return sql::Printer::stringLiteral(text);
    default:
        // Binary, containers, variant: through their text, which Spark casts back.
        return "CAST(" + sql::Printer::stringLiteral(text) + " AS " + type.toString() + ")";
    }
}

/// The schema part of a qualified table name (`main.cdc_tutorial` of `main.cdc_tutorial.users`), if any.
std::string schemaOf(const std::string& name) {
    auto dot = name.rfind('.');
    return dot == std::string::npos ? "" : name.substr(0, dot);
}

std::string fileName(const std::string& table) {
    std::string out;
    for (char c : table)
        out += std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' ? c : '_';
    return out;
}

std::string qualified(const std::string& name) {
    std::string out;
    std::size_t start = 0;
    for (;;) {
        auto dot = name.find('.', start);
        out += sql::Printer::identifier(
            name.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
        if (dot == std::string::npos)
            return out;
        out += ".";
        start = dot + 1;
    }
}

} // namespace

Result<std::vector<ExportFile>> exportSourceData(storage::Database& db, bool csv, bool inserts) {
    std::vector<ExportFile> files;
    if (!csv && !inserts)
        return files;
    auto tables = storage::Catalog::list(db);
    if (!tables)
        return tables.error();
    std::string script = "-- The source tables of the CDC Studio project and their rows.\n";
    std::vector<std::string> schemas;
    for (const auto& t : *tables) {
        if (t.kind != storage::TableKind::Source)
            continue;
        // runQuery reads through the catalog, with the columns' Spark types, and never writes.
        auto rows = sql::runQuery(db, "SELECT * FROM " + qualified(t.name), "<export>", {});
        if (!rows)
            return rows.error();
        if (csv)
            files.push_back({"data/" + fileName(t.name) + ".csv", toCsv(*rows)});
        if (!inserts)
            continue;
        std::string schema = schemaOf(t.name);
        if (!schema.empty() && std::find(schemas.begin(), schemas.end(), schema) == schemas.end()) {
            schemas.push_back(schema);
            script += "\nCREATE SCHEMA IF NOT EXISTS " + qualified(schema) + ";\n";
        }
        script += "\nCREATE TABLE IF NOT EXISTS " + qualified(t.name) + " (";
        for (std::size_t c = 0; c < t.columns.size(); ++c)
            script += (c ? ", " : "") + sql::Printer::identifier(t.columns[c].name) + " " +
                      t.columns[c].type.toString();
        script += ");\n";
        if (rows->rows.empty())
            continue;
        script += "INSERT INTO " + qualified(t.name) + " VALUES\n";
        for (std::size_t r = 0; r < rows->rows.size(); ++r) {
            script += "  (";
            for (std::size_t c = 0; c < t.columns.size() && c < rows->rows[r].size(); ++c)
                script += (c ? ", " : "") + literal(rows->rows[r][c], t.columns[c].type);
            script += r + 1 < rows->rows.size() ? "),\n" : ");\n";
        }
    }
    if (inserts)
        files.push_back({"data/source_tables.sql", script});
    return files;
}

} // namespace cdc::exporting
