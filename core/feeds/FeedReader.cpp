// The readers share one raw layer: a JSON value per line (nlohmann-json), or a CSV row (core/common/Csv,
// strict mode) turned into a JSON object of strings and nulls by its header, so that each format's
// mapping is written once over JSON whichever way the file was written.
#include "core/feeds/FeedReader.h"

#include "core/common/Csv.h"
#include "core/common/Text.h"
#include "core/common/Utf8.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <optional>
#include <span>

namespace cdc::feeds {

using Json = nlohmann::ordered_json;

struct FeedReader::Raw {
    Json value;
    /// A CSV row read as columns (FeedReader::readsColumns): the header's names and the row. `names` is
    /// null for a JSON value.
    const std::vector<std::string>* names = nullptr;
    csv::Record columns;
    std::size_t line = 0;
    std::uint64_t offset = 0;
    bool blank = false; ///< an empty line of a JSON file
};

namespace {

Diagnostic positioned(const std::string& file, std::size_t line, std::uint64_t offset,
                      const std::string& message) {
    SourceLocation where;
    where.file = file;
    where.line = static_cast<int>(line);
    where.column = 1;
    where.offset = static_cast<std::size_t>(offset);
    return Diagnostic::error(
        "FEED_RECORD", "line " + std::to_string(line) + ", byte " + std::to_string(offset) + ": " + message,
        where);
}

/// The member `name` of an object, matched case-insensitively as Spark matches column names.
const Json* member(const Json& object, std::string_view name) {
    if (!object.is_object())
        return nullptr;
    if (auto it = object.find(std::string(name)); it != object.end())
        return &*it;
    for (auto it = object.begin(); it != object.end(); ++it)
        if (equalsIgnoreCase(it.key(), name))
            return &*it;
    return nullptr;
}

/// A dotted path (`source.lsn`) into nested objects; a CSV row's column may hold the dots itself.
const Json* path(const Json& object, std::string_view dotted) {
    if (const Json* whole = member(object, dotted))
        return whole;
    const Json* at = &object;
    std::size_t from = 0;
    while (at) {
        const std::size_t dot = dotted.find('.', from);
        at = member(*at, dotted.substr(from, dot == std::string_view::npos ? dotted.npos : dot - from));
        if (dot == std::string_view::npos)
            return at;
        from = dot + 1;
    }
    return nullptr;
}

/// A JSON value in the storage form of DataType.h: numbers stay numbers, booleans become the text Spark
/// casts from ("true"), objects and arrays their JSON text (how STRUCT, MAP and ARRAY values are stored).
Value toValue(const Json& v) {
    switch (v.type()) {
    case Json::value_t::null:
        return {};
    case Json::value_t::boolean:
        return std::string(v.get<bool>() ? "true" : "false");
    case Json::value_t::number_integer:
        return v.get<std::int64_t>();
    case Json::value_t::number_unsigned:
        if (v.get<std::uint64_t>() <= std::uint64_t(INT64_MAX))
            return static_cast<std::int64_t>(v.get<std::uint64_t>());
        return std::to_string(v.get<std::uint64_t>());
    case Json::value_t::number_float:
        return v.get<double>();
    case Json::value_t::string:
        return v.get<std::string>();
    default:
        return v.dump();
    }
}

/// An empty bare CSV field is NULL, as read_files reads CSV; `""` is the empty string.
bool isNull(const csv::Record& row, std::size_t i) {
    return row.fields[i].empty() && !row.quoted[i];
}

/// The members of an object as fields, except those named in `skip`.
void addFields(const Json& object, FeedRecord& record, std::initializer_list<std::string_view> skip = {}) {
    record.fields.reserve(record.fields.size() + object.size());
    for (auto it = object.begin(); it != object.end(); ++it) {
        bool skipped = false;
        for (auto s : skip)
            skipped = skipped || equalsIgnoreCase(it.key(), s);
        if (!skipped)
            record.fields.emplace_back(it.key(), toValue(it.value()));
    }
}

std::string shown(const Json& v) {
    return v.is_string() ? "'" + v.get<std::string>() + "'" : v.dump();
}

/// What one code of a format's operation field means; no operation: a preimage (or control record), skipped.
struct OperationCode {
    std::string_view code;
    std::optional<Operation> operation;
};

/// The meaning of the operation field's value `v` among `codes`; nullptr for a code the format does not have.
const OperationCode* meaningOf(const Json& v, std::span<const OperationCode> codes) {
    const std::string code = v.is_string() ? v.get<std::string>() : v.dump();
    for (const auto& c : codes)
        if (c.code == code)
            return &c;
    return nullptr;
}

} // namespace

/// Raw records from the bytes: JSON Lines or CSV with a header.
class FeedReader::Source {
public:
    Source(std::istream& in, const ReaderOptions& options, bool json)
        : m_in(in), m_options(options), m_json(json), m_csv(in, options.separator, true) {}

    std::uint64_t consumed() const { return m_json ? m_offset : m_csv.consumed(); }

    /// The next raw record, or nothing at the end; a CSV row as columns when `asColumns`.
    Result<std::optional<Raw>> next(bool asColumns) { return m_json ? nextJson() : nextCsv(asColumns); }

private:
    Result<std::optional<Raw>> nextJson() {
        std::string line;
        Raw raw;
        raw.line = m_line;
        raw.offset = m_offset;
        if (!std::getline(m_in, line)) {
            if (m_in.bad())
                return positioned(m_options.file, m_line, m_offset, "the file could not be read");
            return std::optional<Raw>{};
        }
        m_offset += line.size() + (m_in.eof() ? 0 : 1);
        ++m_line;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (const auto bad = utf8::firstInvalid(line); bad != std::string_view::npos)
            return positioned(m_options.file, raw.line, raw.offset + bad,
                              utf8::describeByte(static_cast<unsigned char>(line[bad])) + " is not UTF-8");
        if (line.find_first_not_of(" \t") == std::string::npos) {
            raw.blank = true;
            return std::optional<Raw>{std::move(raw)};
        }
        try {
            raw.value = Json::parse(line);
        } catch (const Json::parse_error& e) {
            // e.byte is 1-based within the line; the message names the token nlohmann-json choked on.
            const std::uint64_t at = raw.offset + (e.byte > 0 ? e.byte - 1 : 0);
            std::string what = e.what();
            if (const auto colon = what.find("syntax error"); colon != std::string::npos)
                what = what.substr(colon);
            return positioned(m_options.file, raw.line, at, "not valid JSON: " + what);
        }
        return std::optional<Raw>{std::move(raw)};
    }

    Result<std::optional<Raw>> nextCsv(bool asColumns) {
        for (;;) {
            auto record = m_csv.next();
            if (!m_csv.error().empty())
                return positioned(m_options.file, m_csv.errorLine(), m_csv.errorOffset(), m_csv.error());
            if (!record)
                return std::optional<Raw>{};
            for (std::size_t i = 0; i < record->fields.size(); ++i)
                if (const auto bad = utf8::firstInvalid(record->fields[i]); bad != std::string_view::npos)
                    return positioned(
                        m_options.file, m_csv.line(), m_csv.offset(),
                        "field " + std::to_string(i + 1) + " holds " +
                            utf8::describeByte(static_cast<unsigned char>(record->fields[i][bad])) +
                            ", which is not UTF-8");
            if (!m_header) {
                m_header = std::move(record->fields);
                std::vector<std::string> sorted = *m_header;
                std::sort(sorted.begin(), sorted.end());
                m_headerDistinct = std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end();
                continue;
            }
            if (record->fields.size() != m_header->size())
                return positioned(m_options.file, m_csv.line(), m_csv.offset(),
                                  "the record has " + std::to_string(record->fields.size()) +
                                      " fields but the header " + std::to_string(m_header->size()));
            Raw raw;
            raw.line = m_csv.line();
            raw.offset = m_csv.offset();
            if (asColumns && m_headerDistinct) { // a repeated name: the JSON object keeps its last value
                raw.names = &*m_header;
                raw.columns = std::move(*record);
                return std::optional<Raw>{std::move(raw)};
            }
            raw.value = Json::object();
            auto& members = raw.value.get_ref<Json::object_t&>();
            members.reserve(m_header->size());
            for (std::size_t i = 0; i < m_header->size(); ++i) {
                Json field = isNull(*record, i) ? Json(nullptr) : Json(std::move(record->fields[i]));
                // Distinct header names are appended without a lookup; a repeated name keeps its last value.
                if (m_headerDistinct)
                    members.emplace_back((*m_header)[i], std::move(field));
                else
                    raw.value[(*m_header)[i]] = std::move(field);
            }
            return std::optional<Raw>{std::move(raw)};
        }
    }

    std::istream& m_in;
    const ReaderOptions& m_options;
    bool m_json;
    csv::Reader m_csv;
    std::optional<std::vector<std::string>> m_header;
    bool m_headerDistinct = true;
    std::size_t m_line = 1;
    std::uint64_t m_offset = 0;
};

FeedReader::FeedReader(FeedFormat format, std::istream& in, ReaderOptions options)
    : m_format(format), m_options(std::move(options)) {
    bool json = format == FeedFormat::Debezium || format == FeedFormat::JsonLines;
    if (format == FeedFormat::Dms || format == FeedFormat::DeltaCdf) {
        // Either spelling: JSON when the first byte that is not white space opens an object. Peeking
        // through the white space would consume it; the JSON reader skips blank lines anyway and the CSV
        // reader blank lines too, so only the position needs care, and seekg keeps it.
        const auto start = in.tellg();
        int c = in.get();
        while (c == ' ' || c == '\t' || c == '\r' || c == '\n')
            c = in.get();
        json = c == '{';
        in.clear();
        in.seekg(start);
    }
    m_source = std::make_unique<Source>(in, m_options, json);
}

FeedReader::~FeedReader() = default;

std::uint64_t FeedReader::bytesRead() const {
    return m_source->consumed();
}

Diagnostic FeedReader::error(const Raw& raw, const std::string& message) const {
    return positioned(m_options.file, raw.line, raw.offset, message);
}

Result<std::optional<FeedRecord>> FeedReader::next() {
    if (m_failed)
        return Diagnostic::error("FEED_FAILED", "the feed reader stopped at an earlier error");
    for (;;) {
        auto raw = m_source->next(readsColumns());
        if (!raw) {
            m_failed = true;
            return raw.error();
        }
        if (!*raw)
            return std::optional<FeedRecord>{};
        ++m_ordinal;
        FeedRecord record;
        record.line = (*raw)->line;
        record.offset = (*raw)->offset;
        auto skip = interpret(**raw, record);
        if (!skip) {
            m_failed = true;
            return skip.error();
        }
        if (*skip == Skip::Tombstone)
            ++m_tombstones;
        else if (*skip == Skip::Preimage)
            ++m_preimages;
        if (*skip != Skip::None)
            continue;
        return std::optional<FeedRecord>{std::move(record)};
    }
}

namespace {

/// The sequence: the option's field when one is given, else the first of the format's candidates that the
/// first record holds — fixed then for the whole file, since sequences of different kinds do not compare.
class SequencePicker {
public:
    SequencePicker(std::vector<std::string> candidates) : m_candidates(std::move(candidates)) {}

    /// The sequence of `object`; nothing when the chosen field is missing or null.
    std::optional<Value> pick(const Json& object, const std::string& option, std::int64_t ordinal) {
        if (!option.empty()) {
            const Json* v = path(object, option);
            return v && !v->is_null() ? std::optional<Value>(toValue(*v)) : std::nullopt;
        }
        if (!m_chosen) {
            m_chosen = std::string();
            for (const auto& c : m_candidates)
                if (const Json* v = path(object, c); v && !v->is_null()) {
                    m_chosen = c;
                    break;
                }
        }
        if (m_chosen->empty())
            return Value(ordinal);
        const Json* v = path(object, *m_chosen);
        return v && !v->is_null() ? std::optional<Value>(toValue(*v)) : std::nullopt;
    }
    const std::string& chosen() const { return *m_chosen; }

    /// Sets the record's sequence from `object` and takes its field out of the values (a flow reads it from
    /// the sequence column); on failure, the name of the field that is missing.
    std::optional<std::string> assign(const Json& object, const std::string& option, std::int64_t ordinal,
                                      FeedRecord& record) {
        auto picked = pick(object, option, ordinal);
        if (!picked)
            return option.empty() ? chosen() : option;
        record.sequence = std::move(*picked);
        dropFrom(record, option);
        return std::nullopt;
    }

    /// The sequence's own field leaves the row's values (a flow reads it from the sequence column).
    void dropFrom(FeedRecord& record, const std::string& option) const {
        const std::string& name = option.empty() ? (m_chosen ? *m_chosen : option) : option;
        if (name.empty())
            return;
        std::erase_if(record.fields, [&](const auto& f) { return equalsIgnoreCase(f.first, name); });
    }

private:
    std::vector<std::string> m_candidates;
    std::optional<std::string> m_chosen;
};

} // namespace

/// Debezium's change event: the envelope's `op` says what happened, `after` holds the row of c / u / r and
/// `before` that of d (https://debezium.io/documentation/reference/stable/connectors/postgresql.html).
class DebeziumReader : public FeedReader {
public:
    using FeedReader::FeedReader;

protected:
    Result<Skip> interpret(Raw& raw, FeedRecord& record) override {
        if (raw.blank || raw.value.is_null())
            return Skip::Tombstone; // the Kafka record that follows a delete, so compaction can drop the key
        if (!raw.value.is_object())
            return error(raw, "a Debezium change event is a JSON object, not " + raw.value.dump());
        const Json* payload = &raw.value;
        if (const Json* p = member(raw.value, "payload"); p && member(raw.value, "schema")) {
            if (p->is_null())
                return Skip::Tombstone;
            payload = p;
        }
        const Json* op = member(*payload, "op");
        if (!op || op->is_null())
            return error(raw, "the change event has no \"op\"");
        static constexpr OperationCode kCodes[] = {{"c", Operation::Insert},
                                                   {"r", Operation::Insert},
                                                   {"u", Operation::Update},
                                                   {"d", Operation::Delete},
                                                   {"t", Operation::Truncate}};
        const OperationCode* meaning = meaningOf(*op, kCodes);
        if (!meaning)
            return error(raw, "unknown Debezium op " + shown(*op) + " (expected c, u, d, r or t)");
        record.operation = meaning->operation;
        // A delete's row is the one before it; a truncate has none.
        const char* rowFrom = record.operation == Operation::Delete     ? "before"
                              : record.operation == Operation::Truncate ? nullptr
                                                                        : "after";
        if (rowFrom) {
            const Json* row = member(*payload, rowFrom);
            if (!row || !row->is_object())
                return error(raw,
                             "the '" + std::string(meaning->code) + "' event has no \"" + rowFrom + "\" row");
            addFields(*row, record);
        }
        auto sequence = m_sequence.pick(*payload, options().sequenceField, ordinal());
        if (!sequence)
            return error(
                raw, "the event has no " +
                         (options().sequenceField.empty() ? m_sequence.chosen() : options().sequenceField) +
                         ", which the first event's sequence came from");
        record.sequence = std::move(*sequence);
        return Skip::None;
    }

private:
    SequencePicker m_sequence{{"source.lsn", "source.ts_ms", "ts_ms"}};
};

/// AWS DMS: CSV files of an S3 target (with `AddColumnName`) or flat JSON, whose `Op` column holds I, U or
/// D; or the JSON messages of its Kafka and Kinesis targets, `{"data": {...}, "metadata": {"operation":
/// "insert", "record-type": "data", ...}}`.
class DmsReader : public FeedReader {
public:
    using FeedReader::FeedReader;

protected:
    Result<Skip> interpret(Raw& raw, FeedRecord& record) override {
        if (raw.blank)
            return Skip::Blank;
        if (!raw.value.is_object())
            return error(raw, "a DMS record is a JSON object, not " + raw.value.dump());
        const Json* data = member(raw.value, "data");
        const Json* metadata = member(raw.value, "metadata");
        if (data && metadata && metadata->is_object())
            return message(raw, *data, *metadata, record);
        const Json* op = member(raw.value, "Op");
        if (!op || op->is_null())
            return error(raw, "the record has no Op column");
        static constexpr OperationCode kCodes[] = {
            {"I", Operation::Insert}, {"U", Operation::Update}, {"D", Operation::Delete}};
        const OperationCode* meaning = meaningOf(*op, kCodes);
        if (!meaning)
            return error(raw, "unknown DMS Op " + shown(*op) + " (expected I, U or D)");
        record.operation = meaning->operation;
        addFields(raw.value, record, {"Op"});
        return sequence(raw, raw.value, record);
    }

private:
    Result<Skip> message(Raw& raw, const Json& data, const Json& metadata, FeedRecord& record) {
        if (const Json* type = member(metadata, "record-type");
            type && type->is_string() && *type != "data") {
            return Skip::Preimage; // control records (create-table, awsdms_apply_exceptions...) carry no row
        }
        const Json* op = member(metadata, "operation");
        if (!op || op->is_null())
            return error(raw, "the DMS message has no metadata.operation");
        static constexpr OperationCode kCodes[] = {{"load", Operation::Insert},
                                                   {"insert", Operation::Insert},
                                                   {"update", Operation::Update},
                                                   {"delete", Operation::Delete}};
        const OperationCode* meaning = meaningOf(*op, kCodes);
        if (!meaning)
            return error(raw, "unknown DMS operation " + shown(*op) +
                                  " (expected load, insert, update or delete)");
        record.operation = meaning->operation;
        if (!data.is_object())
            return error(raw, "the DMS message's data is not an object");
        addFields(data, record);
        return sequence(raw, metadata, record);
    }

    Result<Skip> sequence(Raw& raw, const Json& from, FeedRecord& record) {
        if (auto missing = m_sequence.assign(from, options().sequenceField, ordinal(), record))
            return error(raw, "the record has no " + *missing);
        return Skip::None;
    }

    SequencePicker m_sequence{{"AR_H_CHANGE_SEQ", "timestamp"}};
};

/// Delta's change data feed (and CDC Studio's table_changes()): `_change_type` insert / update_preimage /
/// update_postimage / delete; the preimage is skipped, a flow applies the row after the change.
class CdfReader : public FeedReader {
public:
    using FeedReader::FeedReader;

protected:
    Result<Skip> interpret(Raw& raw, FeedRecord& record) override {
        if (raw.blank)
            return Skip::Blank;
        if (!raw.value.is_object())
            return error(raw, "a change data feed row is a JSON object, not " + raw.value.dump());
        const Json* type = member(raw.value, "_change_type");
        if (!type || type->is_null())
            return error(raw, "the row has no _change_type");
        static constexpr OperationCode kCodes[] = {{"insert", Operation::Insert},
                                                   {"update_preimage", std::nullopt},
                                                   {"update_postimage", Operation::Update},
                                                   {"delete", Operation::Delete}};
        const OperationCode* meaning = meaningOf(*type, kCodes);
        if (!meaning)
            return error(raw, "unknown _change_type " + shown(*type) +
                                  " (expected insert, update_preimage, update_postimage or delete)");
        if (!meaning->operation)
            return Skip::Preimage;
        record.operation = meaning->operation;
        addFields(raw.value, record, {"_change_type", "_commit_version", "_commit_timestamp"});
        if (auto missing = m_sequence.assign(raw.value, options().sequenceField, ordinal(), record))
            return error(raw, "the row has no " + *missing);
        return Skip::None;
    }

private:
    SequencePicker m_sequence{{"_commit_version"}};
};

/// Flink's changelog as CSV: a row kind column (`op`, `rowkind` or the first) holding +I, -U, +U or -D
/// (or the RowKind names INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE). -U is the preimage.
class FlinkReader : public FeedReader {
public:
    using FeedReader::FeedReader;

protected:
    Result<Skip> interpret(Raw& raw, FeedRecord& record) override {
        if (!m_kindColumn) {
            m_kindColumn = raw.value.empty() ? std::string() : raw.value.begin().key();
            for (auto it = raw.value.begin(); it != raw.value.end(); ++it)
                if (isKindColumn(it.key())) {
                    m_kindColumn = it.key();
                    break;
                }
        }
        const Json* kind = member(raw.value, *m_kindColumn);
        if (!kind || kind->is_null())
            return error(raw, "the row has no row kind in column '" + *m_kindColumn + "'");
        static constexpr OperationCode kCodes[] = {
            {"+I", Operation::Insert}, {"INSERT", Operation::Insert},
            {"-U", std::nullopt},      {"UPDATE_BEFORE", std::nullopt},
            {"+U", Operation::Update}, {"UPDATE_AFTER", Operation::Update},
            {"-D", Operation::Delete}, {"DELETE", Operation::Delete}};
        const OperationCode* meaning = meaningOf(*kind, kCodes);
        if (!meaning)
            return error(raw, "unknown Flink row kind " + shown(*kind) + " (expected +I, -U, +U or -D)");
        if (!meaning->operation)
            return Skip::Preimage;
        record.operation = meaning->operation;
        addFields(raw.value, record, {*m_kindColumn});
        if (auto missing = m_sequence.assign(raw.value, options().sequenceField, ordinal(), record))
            return error(raw, "the row has no " + *missing);
        return Skip::None;
    }

private:
    static bool isKindColumn(std::string_view name) {
        for (const char* kind : {"op", "rowkind", "row_kind", "_op"})
            if (equalsIgnoreCase(name, kind))
                return true;
        return false;
    }

    std::optional<std::string> m_kindColumn;
    SequencePicker m_sequence{{}};
};

/// Plain CSV and JSON Lines: every column is a value, there is no operation; the sequence is the ordinal.
class PlainReader : public FeedReader {
public:
    using FeedReader::FeedReader;

protected:
    Result<Skip> interpret(Raw& raw, FeedRecord& record) override {
        if (raw.names)
            return fromColumns(raw, record);
        if (raw.blank)
            return Skip::Blank;
        if (!raw.value.is_object())
            return error(raw, "a JSON Lines record is a JSON object, not " + raw.value.dump());
        addFields(raw.value, record);
        if (auto missing = m_sequence.assign(raw.value, options().sequenceField, ordinal(), record))
            return error(raw, "the record has no " + *missing);
        return Skip::None;
    }
    bool readsColumns() const override { return true; }

private:
    /// A CSV row as the JSON path would read it: every column a string value or NULL; the sequence column
    /// (matched exactly, else ignoring case, as member() matches) leaves the values with every column
    /// whose name equals it ignoring case, as SequencePicker::dropFrom drops them.
    Result<Skip> fromColumns(Raw& raw, FeedRecord& record) {
        const std::vector<std::string>& names = *raw.names;
        const std::string& sequenceName = options().sequenceField;
        if (sequenceName.empty()) {
            record.sequence = Value(ordinal());
        } else {
            auto at = std::find(names.begin(), names.end(), sequenceName);
            if (at == names.end())
                at = std::find_if(names.begin(), names.end(),
                                  [&](const std::string& n) { return equalsIgnoreCase(n, sequenceName); });
            const auto i = static_cast<std::size_t>(at - names.begin());
            if (at == names.end() || isNull(raw.columns, i))
                return error(raw, "the record has no " + sequenceName);
            record.sequence = Value(raw.columns.fields[i]);
        }
        record.fields.reserve(names.size());
        for (std::size_t i = 0; i < names.size(); ++i) {
            if (!sequenceName.empty() && equalsIgnoreCase(names[i], sequenceName))
                continue;
            record.fields.emplace_back(
                names[i], isNull(raw.columns, i) ? Value() : Value(std::move(raw.columns.fields[i])));
        }
        return Skip::None;
    }

private:
    SequencePicker m_sequence{{}};
};

std::unique_ptr<FeedReader> FeedReader::create(FeedFormat format, std::istream& in, ReaderOptions options) {
    switch (format) {
    case FeedFormat::Debezium:
        return std::unique_ptr<FeedReader>(new DebeziumReader(format, in, std::move(options)));
    case FeedFormat::Dms:
        return std::unique_ptr<FeedReader>(new DmsReader(format, in, std::move(options)));
    case FeedFormat::DeltaCdf:
        return std::unique_ptr<FeedReader>(new CdfReader(format, in, std::move(options)));
    case FeedFormat::Flink:
        return std::unique_ptr<FeedReader>(new FlinkReader(format, in, std::move(options)));
    case FeedFormat::Csv:
    case FeedFormat::JsonLines:
        break;
    }
    return std::unique_ptr<FeedReader>(new PlainReader(format, in, std::move(options)));
}

} // namespace cdc::feeds
