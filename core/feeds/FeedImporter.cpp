// The table is created inside the import's transaction, so a failed or cancelled import does not leave an
// empty table behind either.
#include "core/feeds/FeedImporter.h"

#include "core/sql/SqlApi.h"

#include <filesystem>
#include <fstream>

namespace cdc::feeds {

namespace {

/// `a`.`b`.`c`: each part of a qualified name in backticks, for the source script.
std::string quotedName(const std::string& name) {
    std::string out;
    std::size_t from = 0;
    for (;;) {
        const std::size_t dot = name.find('.', from);
        const std::string part = name.substr(from, dot == std::string::npos ? std::string::npos : dot - from);
        out += '`';
        for (char c : part)
            out += c == '`' ? std::string("``") : std::string(1, c);
        out += '`';
        if (dot == std::string::npos)
            return out;
        out += '.';
        from = dot + 1;
    }
}

constexpr std::size_t kProgressEvery = 256;

} // namespace

FeedPreview previewFeed(std::istream& in, FeedFormat format, const ReaderOptions& options,
                        std::size_t limit) {
    FeedPreview preview;
    auto reader = FeedReader::create(format, in, options);
    while (preview.records.size() < limit) {
        auto next = reader->next();
        if (!next) {
            preview.error = next.error();
            break;
        }
        if (!*next)
            break;
        preview.records.push_back(std::move(**next));
    }
    preview.fields = fieldNames(preview.records);
    preview.tombstones = reader->tombstones();
    preview.preimages = reader->preimages();
    return preview;
}

Result<TableSink> TableSink::open(storage::Database& db, const storage::TableInfo& table,
                                  const FeedMapping& mapping) {
    std::string sql = "INSERT INTO " + storage::quoteIdentifier(table.sqliteName) + "(";
    std::string marks;
    for (std::size_t i = 0; i < mapping.columns.size(); ++i) {
        if (table.columnIndex(mapping.columns[i].name) < 0)
            return Diagnostic::error("MAPPING", "the table '" + table.name + "' has no column '" +
                                                    mapping.columns[i].name + "'");
        sql += (i ? ", " : "") + storage::quoteIdentifier(mapping.columns[i].name);
        marks += i ? ", ?" : "?";
    }
    auto insert = db.prepare(sql + ") VALUES(" + marks + ")");
    if (!insert)
        return insert.error();
    return TableSink(std::move(insert).value());
}

Status TableSink::write(const Row& row) {
    m_insert.reset();
    for (std::size_t i = 0; i < row.size(); ++i)
        m_insert.bind(static_cast<int>(i) + 1, row[i]);
    return m_insert.run();
}

Result<std::optional<storage::TableInfo>> findSourceTable(storage::Database& db, const std::string& table) {
    CDC_TRY(storage::Catalog::ensureSchema(db));
    auto found = storage::Catalog::find(db, table);
    if (!found)
        return found.error();
    if (*found && (*found)->kind != storage::TableKind::Source)
        return Diagnostic::error("NOT_A_SOURCE", "'" + (*found)->name + "' is a " +
                                                     storage::tableKindName((*found)->kind) +
                                                     ", not a source table: events go into source tables");
    return found;
}

Result<storage::TableInfo> createSourceTable(storage::Database& db, const std::string& table,
                                             const FeedMapping& mapping) {
    CDC_TRY(mapping.check());
    std::string script;
    if (const auto dot = table.rfind('.'); dot != std::string::npos)
        script += "CREATE SCHEMA IF NOT EXISTS " + quotedName(table.substr(0, dot)) + ";\n";
    script += "CREATE TABLE " + quotedName(table) + " (";
    for (std::size_t i = 0; i < mapping.columns.size(); ++i)
        script +=
            (i ? ", " : "") + quotedName(mapping.columns[i].name) + " " + mapping.columns[i].type.toString();
    script += ");\n";
    CDC_TRY(sql::executeSourceScript(db, script, "<import>"));
    auto created = storage::Catalog::find(db, table);
    if (!created)
        return created.error();
    if (!*created)
        return Diagnostic::error("INTERNAL", "the table '" + table + "' was not created");
    return std::move(**created);
}

Result<ImportReport> importFeed(storage::Database& db, FeedReader& reader, const std::string& table,
                                const FeedMapping& mapping, RowSink* sink, const ImportProgress& progress) {
    CDC_TRY(mapping.check());
    auto tx = storage::Transaction::begin(db, "cdc_feed_import");
    if (!tx)
        return tx.error();
    ImportReport report;
    auto existing = findSourceTable(db, table);
    if (!existing)
        return existing.error();
    storage::TableInfo info;
    if (*existing) {
        info = std::move(**existing);
    } else {
        auto created = createSourceTable(db, table, mapping);
        if (!created)
            return created.error();
        info = std::move(created).value();
        report.created = true;
    }
    report.table = info.name;
    report.format = reader.format();
    // The table's own types decide the casts, whatever types the mapping was drafted with.
    FeedMapping typed = mapping;
    for (auto& column : typed.columns) {
        const int at = info.columnIndex(column.name);
        if (at < 0)
            return Diagnostic::error("MAPPING",
                                     "the table '" + info.name + "' has no column '" + column.name + "'");
        column.type = info.columns[static_cast<std::size_t>(at)].type;
    }
    std::optional<TableSink> tableSink;
    if (!sink) {
        auto opened = TableSink::open(db, info, typed);
        if (!opened)
            return opened.error();
        tableSink.emplace(std::move(opened).value());
        sink = &*tableSink;
    }
    const std::string& file = reader.options().file;
    for (;;) {
        auto next = reader.next();
        if (!next)
            return next.error();
        if (!*next)
            break;
        auto row = typed.row(**next, file);
        if (!row)
            return row.error();
        CDC_TRY(sink->write(*row));
        ++report.imported;
        if (progress && report.imported % kProgressEvery == 0 &&
            !progress(reader.bytesRead(), report.imported))
            return Diagnostic::error("CANCELLED", "the import was cancelled; nothing was imported");
    }
    if (progress && !progress(reader.bytesRead(), report.imported))
        return Diagnostic::error("CANCELLED", "the import was cancelled; nothing was imported");
    report.tombstones = reader.tombstones();
    report.preimages = reader.preimages();
    CDC_TRY(tx->commit());
    return report;
}

Result<ImportReport> importFile(storage::Database& db, const FileImport& request,
                                const ImportProgress& progress) {
    ReaderOptions options = request.reader;
    if (options.file.empty() || options.file == ReaderOptions{}.file)
        options.file = request.path;
    const auto open = [&]() -> Result<std::ifstream> {
        std::ifstream in(std::filesystem::path(request.path), std::ios::binary);
        if (!in)
            return Diagnostic::error("FILE", "cannot read " + request.path);
        return in;
    };
    auto head = open();
    if (!head)
        return head.error();
    FeedFormat format;
    if (request.format) {
        format = *request.format;
    } else {
        std::string bytes(64 * 1024, '\0');
        head->read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        bytes.resize(static_cast<std::size_t>(head->gcount()));
        format = detectFormat(bytes);
        head->clear();
        head->seekg(0);
    }
    const FeedPreview sample = previewFeed(*head, format, options, 1000);
    auto existing = findSourceTable(db, request.table);
    if (!existing)
        return existing.error();
    const FeedMapping mapping =
        *existing ? FeedMapping::forTable(**existing, sample.fields, format)
                  : FeedMapping::forNewTable(sample.records, format, request.operationColumn,
                                             request.sequenceColumn);
    auto in = open();
    if (!in)
        return in.error();
    auto reader = FeedReader::create(format, *in, options);
    return importFeed(db, *reader, request.table, mapping, nullptr, progress);
}

} // namespace cdc::feeds
