// Files are read whole (a simulator's snapshots are small) and turned into rows here, before the query
// runs; RowsTable serves them. Every error points at the argument it is about: the path literal for a
// path that is refused or missing, the option for a bad option, the call for a file that does not parse.
#include "core/storage/FileTableFunctions.h"

#include "core/common/Csv.h"
#include "core/common/Text.h"
#include "core/common/Utf8.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

namespace cdc::storage {

namespace {

using Entry = VolumeRoot::Entry;
using Argument = TableFunctionCall::Argument;

struct ReadOptions {
    std::string path;
    SourceLocation pathAt;
    std::string format; ///< csv or json
    bool header = false;
    char separator = ',';
};

Diagnostic badCall(const TableFunctionCall& call, const std::string& message, const SourceLocation& at) {
    return Diagnostic::error("INVALID_TABLE_FUNCTION_ARGUMENT", call.function + ": " + message,
                             at.valid() ? at : call.location);
}

/// The path: the first positional argument, a string literal.
Result<std::pair<std::string, SourceLocation>> pathArgument(const TableFunctionCall& call) {
    for (const Argument& a : call.arguments)
        if (a.name.empty()) {
            if (!a.literal || !std::holds_alternative<std::string>(a.value))
                return badCall(call, "the path must be a string literal, not " + a.text, a.location);
            return std::pair{std::get<std::string>(a.value), a.location};
        }
    return badCall(call, "the first argument is the path of a file or folder, as '/Volumes/...'", {});
}

bool truthy(const Value& v) {
    if (const auto* i = std::get_if<std::int64_t>(&v))
        return *i != 0;
    if (const auto* s = std::get_if<std::string>(&v))
        return equalsIgnoreCase(*s, "true");
    return false;
}

std::string extensionFormat(const std::string& path) {
    const auto dot = path.find_last_of('.');
    const std::string ext = dot == std::string::npos ? "" : toLower(path.substr(dot + 1));
    return ext == "csv" || ext == "json" ? ext : ext == "jsonl" ? "json" : "";
}

Result<ReadOptions> readOptions(const TableFunctionCall& call) {
    auto path = pathArgument(call);
    if (!path)
        return path.error();
    ReadOptions o;
    o.path = path->first;
    o.pathAt = path->second;
    bool positional = false;
    for (const Argument& a : call.arguments) {
        if (a.name.empty()) {
            if (positional)
                return badCall(call, "options are named: format => 'csv'", a.location);
            positional = true;
            continue;
        }
        if (!a.literal)
            return badCall(call, "option " + a.name + " must be a literal, not " + a.text, a.location);
        const std::string name = toLower(a.name);
        const std::string text = std::holds_alternative<std::string>(a.value) ? std::get<std::string>(a.value)
                                                                              : displayText(a.value);
        if (name == "format") {
            o.format = toLower(text);
            if (o.format != "csv" && o.format != "json")
                return badCall(call, "format " + a.text + " is not supported; use 'csv' or 'json'",
                               a.location);
        } else if (name == "header") {
            o.header = truthy(a.value);
        } else if (name == "sep" || name == "delimiter") {
            if (text.size() != 1)
                return badCall(call, name + " must be one character", a.location);
            o.separator = text[0];
        } else if (name != "multiline" && name != "inferschema" && name != "infercolumntypes") {
            return badCall(
                call, "option " + a.name + " is not supported (supported: format, header, sep, delimiter)",
                a.location);
        }
    }
    if (o.format.empty())
        o.format = extensionFormat(o.path);
    if (o.format.empty())
        return badCall(call, "say which format the files have: format => 'csv' or format => 'json'",
                       call.location);
    return o;
}

Result<std::string> readWhole(const Entry& e, const TableFunctionCall& call) {
    std::ifstream in(e.local, std::ios::binary);
    if (!in)
        return Diagnostic::error("PATH_NOT_FOUND", "cannot read " + e.path, call.location);
    std::ostringstream text;
    text << in.rdbuf();
    std::string s = text.str();
    // Files are read as UTF-8, and the project stores only valid UTF-8 (so that JSON output stays valid):
    // a byte that is not is refused at its line and column of the file, not stored.
    if (const std::size_t bad = utf8::firstInvalid(s); bad != std::string::npos) {
        const utf8::LineColumn at = utf8::lineColumnAt(s, bad);
        return Diagnostic::error("INVALID_UTF8",
                                 call.function + ": " + e.path + ":" + std::to_string(at.line) + ":" +
                                     std::to_string(at.column) + ": " +
                                     utf8::describeByte(static_cast<unsigned char>(s[bad])) +
                                     " is not valid UTF-8; files are read as UTF-8",
                                 call.location);
    }
    if (s.size() >= 3 && s.compare(0, 3, "\xEF\xBB\xBF") == 0)
        s.erase(0, 3); // a byte-order mark is not part of the first column's name
    return s;
}

std::string metadataJson(const Entry& e) {
    nlohmann::ordered_json m;
    m["file_path"] = e.path;
    m["file_name"] = e.name;
    m["file_size"] = e.size;
    m["file_block_start"] = 0;
    m["file_block_length"] = e.size;
    m["file_modification_time"] = timestampText(e.modificationMicros);
    return m.dump();
}

/// The type a column's values have so far, widened by one more (BIGINT, DOUBLE, else STRING).
void widen(DataType& type, const Value& v) {
    using K = DataType::Kind;
    const K kind = std::holds_alternative<std::int64_t>(v) ? K::BigInt
                   : std::holds_alternative<double>(v)     ? K::Double
                   : isNull(v)                             ? K::Void
                                                           : K::String;
    if (kind == K::Void || kind == type.kind)
        return;
    if (type.kind == K::Void || (type.kind == K::BigInt && kind == K::Double))
        type = DataType::of(kind);
    else if (!(type.kind == K::Double && kind == K::BigInt))
        type = DataType::of(K::String);
}

DataType metadataType() {
    using K = DataType::Kind;
    return DataType::structOf({"file_path", "file_name", "file_size", "file_block_start", "file_block_length",
                               "file_modification_time"},
                              {DataType::of(K::String), DataType::of(K::String), DataType::of(K::BigInt),
                               DataType::of(K::BigInt), DataType::of(K::BigInt), DataType::of(K::Timestamp)});
}

/// Rows whose columns are the union, by name, of what each file brings.
class RowsBuilder {
public:
    std::size_t column(const std::string& name) {
        for (std::size_t i = 0; i < m_data.columns.size(); ++i)
            if (m_data.columns[i] == name)
                return i;
        m_data.columns.push_back(name);
        m_data.hidden.push_back(false);
        return m_data.columns.size() - 1;
    }
    void add(std::vector<std::pair<std::size_t, Value>> cells, Value metadata) {
        m_rows.push_back({std::move(cells), std::move(metadata)});
    }
    RowsTableData finish(bool withMetadata, const std::vector<std::string>& order) && {
        std::vector<std::size_t> position(m_data.columns.size());
        RowsTableData out;
        for (const std::string& name : order) {
            position[column(name)] = out.columns.size();
            out.columns.push_back(name);
            out.hidden.push_back(false);
        }
        if (withMetadata) {
            out.columns.push_back("_metadata");
            out.hidden.push_back(true);
        }
        std::vector<DataType> types(out.columns.size(), DataType::of(DataType::Kind::Void));
        for (auto& [cells, metadata] : m_rows) {
            Row row(out.columns.size());
            for (auto& [c, v] : cells) {
                widen(types[position[c]], v);
                row[position[c]] = std::move(v);
            }
            if (withMetadata)
                row.back() = std::move(metadata);
            out.rows.push_back(std::move(row));
        }
        for (DataType& t : types)
            if (t.kind == DataType::Kind::Void)
                t = DataType::of(DataType::Kind::String); // no value seen: STRING, as Spark infers
        if (withMetadata)
            types.back() = metadataType();
        out.types = std::move(types);
        return out;
    }
    const std::vector<std::string>& names() const { return m_data.columns; }

private:
    RowsTableData m_data;
    std::vector<std::pair<std::vector<std::pair<std::size_t, Value>>, Value>> m_rows;
};

void readCsv(const std::string& text, const ReadOptions& o, const Entry& e, RowsBuilder& rows) {
    const std::vector<csv::Record> records = csv::parse(text, o.separator);
    std::vector<std::size_t> columns;
    std::size_t first = 0;
    if (o.header && !records.empty()) {
        for (const std::string& name : records[0].fields)
            columns.push_back(rows.column(name));
        first = 1;
    }
    const Value metadata = metadataJson(e);
    for (std::size_t r = first; r < records.size(); ++r) {
        const csv::Record& rec = records[r];
        std::vector<std::pair<std::size_t, Value>> cells;
        for (std::size_t f = 0; f < rec.fields.size(); ++f) {
            if (f >= columns.size()) {
                if (o.header)
                    break; // more fields than the header names: Spark's PERMISSIVE mode drops them
                columns.push_back(rows.column("_c" + std::to_string(f)));
            }
            // Spark reads an empty unquoted field as NULL, an empty quoted one as ''.
            Value v = rec.fields[f].empty() && !rec.quoted[f] ? Value{} : Value{rec.fields[f]};
            cells.emplace_back(columns[f], std::move(v));
        }
        rows.add(std::move(cells), metadata);
    }
}

Value jsonValue(const nlohmann::json& j) {
    switch (j.type()) {
    case nlohmann::json::value_t::boolean:
        return std::int64_t{j.get<bool>() ? 1 : 0};
    case nlohmann::json::value_t::number_integer:
        return j.get<std::int64_t>();
    case nlohmann::json::value_t::number_unsigned:
        return static_cast<std::int64_t>(j.get<std::uint64_t>());
    case nlohmann::json::value_t::number_float:
        return j.get<double>();
    case nlohmann::json::value_t::string:
        return j.get<std::string>();
    case nlohmann::json::value_t::object:
    case nlohmann::json::value_t::array:
        return j.dump(); // STRUCT / ARRAY values are stored as JSON text
    default:
        return Value{};
    }
}

Status readJson(const std::string& text, const Entry& e, const TableFunctionCall& call, RowsBuilder& rows) {
    std::vector<nlohmann::json> objects;
    const auto start = text.find_first_not_of(" \t\r\n");
    const auto malformed = [&](const std::string& what) {
        return Diagnostic::error("MALFORMED_RECORD_IN_PARSING", call.function + ": " + e.path + ": " + what,
                                 call.location);
    };
    if (start != std::string::npos && text[start] == '[') {
        auto all = nlohmann::json::parse(text, nullptr, false);
        if (all.is_discarded())
            return malformed("not valid JSON");
        for (auto& item : all)
            objects.push_back(std::move(item));
    } else {
        std::istringstream lines(text);
        std::string line;
        for (int n = 1; std::getline(lines, line); ++n) {
            if (line.find_first_not_of(" \t\r") == std::string::npos)
                continue;
            auto one = nlohmann::json::parse(line, nullptr, false);
            if (one.is_discarded())
                return malformed("line " + std::to_string(n) + " is not valid JSON");
            objects.push_back(std::move(one));
        }
    }
    const Value metadata = metadataJson(e);
    for (const auto& object : objects) {
        if (!object.is_object())
            return malformed("every record must be a JSON object");
        std::vector<std::pair<std::size_t, Value>> cells;
        for (const auto& [key, value] : object.items())
            cells.emplace_back(rows.column(key), jsonValue(value));
        rows.add(std::move(cells), metadata);
    }
    return Status::success();
}

Result<RowsTableData> readFiles(const VolumeRoot& volumes, const TableFunctionCall& call) {
    auto o = readOptions(call);
    if (!o)
        return o.error();
    auto entries = volumes.list(o->path, o->pathAt);
    if (!entries)
        return entries.error();
    RowsBuilder rows;
    for (const Entry& e : entries.value()) {
        if (e.folder)
            continue; // a folder's own files only, as Spark reads a folder without recursiveFileLookup
        auto text = readWhole(e, call);
        if (!text)
            return text.error();
        if (o->format == "csv")
            readCsv(text.value(), o.value(), e, rows);
        else
            CDC_TRY(readJson(text.value(), e, call, rows));
    }
    if (rows.names().empty())
        return Diagnostic::error("UNABLE_TO_INFER_SCHEMA",
                                 "read_files found no columns in " + o->path +
                                     " (no file, or only empty ones); the schema cannot be inferred",
                                 o->pathAt);
    std::vector<std::string> order = rows.names();
    if (o->format == "json")
        std::sort(order.begin(), order.end()); // Spark's JSON schema inference sorts the fields
    return std::move(rows).finish(true, order);
}

Result<RowsTableData> listFiles(const VolumeRoot& volumes, const TableFunctionCall& call) {
    auto path = pathArgument(call);
    if (!path)
        return path.error();
    for (const Argument& a : call.arguments)
        if (!a.name.empty() || &a != &call.arguments.front())
            return badCall(call, "list_files takes one argument, the path", a.location);
    auto entries = volumes.list(path->first, path->second);
    if (!entries)
        return entries.error();
    RowsTableData out;
    out.columns = {"path", "name", "size", "modification_time"};
    out.hidden.assign(out.columns.size(), false);
    out.types = {DataType::of(DataType::Kind::String), DataType::of(DataType::Kind::String),
                 DataType::of(DataType::Kind::BigInt), DataType::of(DataType::Kind::Timestamp)};
    for (const Entry& e : entries.value())
        out.rows.push_back({e.path, e.name, e.size, timestampText(e.modificationMicros)});
    return out;
}

/// FNV-1a: a stable table name per call, so that a plan that names the table stays the same between runs.
std::string callHash(const TableFunctionCall& call) {
    std::uint64_t h = 1469598103934665603ULL;
    const auto mix = [&](std::string_view s) {
        for (unsigned char c : s)
            h = (h ^ c) * 1099511628211ULL;
        h = (h ^ 0xFF) * 1099511628211ULL;
    };
    mix(call.function);
    for (const Argument& a : call.arguments) {
        mix(toLower(a.name));
        mix(a.text);
    }
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (int shift = 60; shift >= 0; shift -= 4)
        out += hex[(h >> shift) & 15];
    return out;
}

} // namespace

bool isFileTableFunction(std::string_view name) {
    return equalsIgnoreCase(name, "read_files") || equalsIgnoreCase(name, "list_files");
}

Result<RowsTableData> readFileTableFunction(const VolumeRoot& volumes, const TableFunctionCall& call) {
    if (equalsIgnoreCase(call.function, "read_files"))
        return readFiles(volumes, call);
    if (equalsIgnoreCase(call.function, "list_files"))
        return listFiles(volumes, call);
    return Diagnostic::error("UNRESOLVABLE_TABLE_VALUED_FUNCTION",
                             "unknown table-valued function " + call.function, call.location);
}

Result<BoundFileTable> bindFileTableFunction(const Database& db, const TableFunctionCall& call) {
    auto rows = readFileTableFunction(db.volumes(), call);
    if (!rows)
        return rows.error();
    BoundFileTable out;
    for (std::size_t c = 0; c < rows->columns.size(); ++c)
        if (!rows->hidden[c])
            out.columns.push_back({rows->columns[c], rows->types[c]});
    const std::string name = "__cdc_" + toLower(call.function) + "_" + callHash(call);
    if (auto made = createRowsTable(db, name, std::move(rows).value()); !made) {
        Diagnostic d = made.error();
        d.location = call.location;
        return d;
    }
    out.fromItem = "temp." + quoteIdentifier(name);
    return out;
}

} // namespace cdc::storage
