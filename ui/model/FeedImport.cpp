// The queue's rows hold every column of the table in catalog order (ProjectStore), so the sink places the
// mapping's columns by name once it knows the table — which the import may have created a moment before.
#include "ui/model/FeedImport.h"

#include "core/common/Text.h"
#include "ui/model/Project.h"
#include "ui/model/ProjectStore.h"

#include <QCoreApplication>
#include <QLocale>

#include <filesystem>
#include <fstream>

namespace cdc::ui::feedimport {

namespace {

/// Rows as queued events of one table: one prepared INSERT into the queue, reused.
class EventQueueSink : public feeds::RowSink {
public:
    EventQueueSink(storage::Database& db, std::string table, const feeds::FeedMapping& mapping)
        : m_db(db), m_table(std::move(table)), m_mapping(mapping) {}

    Status write(const Row& row) override {
        if (!m_insert)
            CDC_TRY(open());
        Row full(m_width);
        for (std::size_t i = 0; i < row.size(); ++i)
            full[m_positions[i]] = row[i];
        m_insert->reset();
        m_insert->bind(1, static_cast<std::int64_t>(++m_position))
            .bind(2, Value(m_source))
            .bind(3, Value(projectstore::encodeRow(full).toStdString()));
        return m_insert->run();
    }

private:
    Status open() {
        auto info = storage::Catalog::find(m_db, m_table);
        if (!info)
            return info.error();
        if (!*info)
            return Diagnostic::error("UNKNOWN_SOURCE", "the source table '" + m_table + "' does not exist");
        m_source = (*info)->name;
        m_width = (*info)->columns.size();
        for (const auto& c : m_mapping.columns)
            m_positions.push_back(static_cast<std::size_t>((*info)->columnIndex(c.name)));
        auto max = m_db.prepare("SELECT COALESCE(MAX(position), 0) FROM __cdc_event_queue");
        if (!max)
            return max.error();
        if (auto has = max->step(); !has)
            return has.error();
        m_position = max->int64(0);
        auto insert =
            m_db.prepare("INSERT INTO __cdc_event_queue(position, source, row_json) VALUES(?, ?, ?)");
        if (!insert)
            return insert.error();
        m_insert.emplace(std::move(insert).value());
        return {};
    }

    storage::Database& m_db;
    std::string m_table;
    const feeds::FeedMapping& m_mapping;
    std::optional<storage::Statement> m_insert;
    std::string m_source;
    std::size_t m_width = 0;
    std::vector<std::size_t> m_positions;
    std::int64_t m_position = 0;
};

} // namespace

Result<feeds::ImportReport> importIntoQueue(Project& project, const QString& path, feeds::FeedFormat format,
                                            const feeds::ReaderOptions& options, const QString& table,
                                            const feeds::FeedMapping& mapping,
                                            const feeds::ImportProgress& progress) {
    std::ifstream in(std::filesystem::path(path.toStdString()), std::ios::binary);
    if (!in)
        return Diagnostic::error("FILE", "cannot read " + path.toStdString());
    feeds::ImportReport report;
    const Status done =
        project.change(QCoreApplication::translate("FeedImport", "Import Feed into %1").arg(table),
                       [&](storage::Database& db) {
                           auto reader = feeds::FeedReader::create(format, in, options);
                           EventQueueSink sink(db, table.toStdString(), mapping);
                           auto imported =
                               feeds::importFeed(db, *reader, table.toStdString(), mapping, &sink, progress);
                           if (!imported)
                               return Status(imported.error());
                           report = std::move(imported).value();
                           return Status::success();
                       });
    if (!done)
        return done.error();
    return report;
}

QString reportText(const feeds::ImportReport& report) {
    const QLocale locale;
    const QString table = QString::fromStdString(report.table).section(QLatin1Char('.'), -1);
    QString text = QCoreApplication::translate("FeedImport", "Imported %1 events into %2")
                       .arg(locale.toString(qulonglong(report.imported)), table);
    QStringList notes;
    if (report.created)
        notes << QCoreApplication::translate("FeedImport", "created the source table %1")
                     .arg(QString::fromStdString(report.table));
    if (report.tombstones > 0)
        notes << QCoreApplication::translate("FeedImport", "%1 Kafka tombstones skipped")
                     .arg(locale.toString(qulonglong(report.tombstones)));
    if (report.preimages > 0)
        notes << QCoreApplication::translate("FeedImport", "%1 preimages skipped")
                     .arg(locale.toString(qulonglong(report.preimages)));
    if (!notes.isEmpty())
        text += QStringLiteral(" (") + notes.join(QStringLiteral("; ")) + QStringLiteral(")");
    return text;
}

feeds::FeedPreview preview(const QString& path, feeds::FeedFormat format, const feeds::ReaderOptions& options,
                           std::size_t limit) {
    std::ifstream in(std::filesystem::path(path.toStdString()), std::ios::binary);
    if (!in) {
        feeds::FeedPreview none;
        none.error = Diagnostic::error("FILE", "cannot read " + path.toStdString());
        return none;
    }
    return feeds::previewFeed(in, format, options, limit);
}

feeds::FeedFormat detect(const QString& path) {
    std::ifstream in(std::filesystem::path(path.toStdString()), std::ios::binary);
    std::string head(64 * 1024, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    return feeds::detectFormat(head);
}

} // namespace cdc::ui::feedimport
