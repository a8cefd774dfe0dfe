// Capturing runs the script for real (the CLI's executor) and reads back the rows above each table's
// highest rowid before the rollback, so the queued values are exactly what the INSERTs would store.
#include "ui/model/SourceScripts.h"

#include "core/sql/SqlApi.h"
#include "core/storage/Catalog.h"
#include "ui/model/Project.h"
#include "ui/model/SampleLibrary.h"

#include <map>

namespace cdc::ui::sourcescripts {

using storage::Database;

namespace {
Result<std::map<std::string, std::int64_t>> maxRowids(Database& db,
                                                      const std::vector<storage::TableInfo>& tables) {
    std::map<std::string, std::int64_t> out;
    for (const auto& t : tables) {
        auto stmt =
            db.prepare("SELECT COALESCE(MAX(rowid), 0) FROM " + storage::quoteIdentifier(t.sqliteName));
        if (!stmt)
            return stmt.error();
        if (auto has = stmt->step(); !has)
            return has.error();
        out[t.name] = stmt->int64(0);
    }
    return out;
}

Result<std::vector<storage::TableInfo>> sourceTables(Database& db) {
    auto all = storage::Catalog::list(db);
    if (!all)
        return all.error();
    std::vector<storage::TableInfo> sources;
    for (auto& t : *all)
        if (t.kind == storage::TableKind::Source)
            sources.push_back(std::move(t));
    return sources;
}
} // namespace

Result<QList<QueuedEvent>> captureEvents(Database& db, const QString& script, const QString& file) {
    auto tables = sourceTables(db);
    if (!tables)
        return tables.error();
    auto before = maxRowids(db, *tables);
    if (!before)
        return before.error();
    auto tx = storage::Transaction::begin(db, "cdc_capture_events");
    if (!tx)
        return tx.error();
    const std::string text = script.toStdString();
    CDC_TRY(sql::executeSourceScript(db, text, file.toStdString()));
    QList<QueuedEvent> captured;
    for (const auto& t : *tables) {
        std::string sql = "SELECT ";
        for (std::size_t i = 0; i < t.columns.size(); ++i)
            sql += (i ? ", " : "") + storage::quoteIdentifier(t.columns[i].name);
        sql += " FROM " + storage::quoteIdentifier(t.sqliteName) + " WHERE rowid > ? ORDER BY rowid";
        auto stmt = db.prepare(sql);
        if (!stmt)
            return stmt.error();
        stmt->bind(1, (*before)[t.name]);
        while (true) {
            auto has = stmt->step();
            if (!has)
                return has.error();
            if (!*has)
                break;
            captured.append(QueuedEvent::row(0, QString::fromStdString(t.name), stmt->row()));
        }
    }
    tx->rollback();
    return captured;
}

namespace {
QString stepLabel(const QString& script) {
    QString first;
    for (const QString& line : script.split(QLatin1Char('\n'))) {
        const QString text = line.trimmed();
        if (text.startsWith(QLatin1String("--")))
            return text.mid(2).trimmed();
        if (first.isEmpty() && !text.isEmpty())
            first = text;
    }
    return first;
}
} // namespace

Result<QueuedEvent> captureStep(Database& db, const QString& script, const QString& file) {
    const std::string text = script.toStdString();
    auto written = sql::sourceScriptWrites(text, file.toStdString());
    if (!written)
        return written.error();
    if (written->empty())
        return Diagnostic::error(
            "NO_ROWS", "the SQL writes no rows: a step needs an INSERT, UPDATE, DELETE or TRUNCATE");
    auto tx = storage::Transaction::begin(db, "cdc_capture_step");
    if (!tx)
        return tx.error();
    CDC_TRY(sql::executeSourceScript(db, text, file.toStdString()));
    tx->rollback();
    return QueuedEvent::step(0, script.trimmed() + QLatin1Char('\n'), stepLabel(script));
}

Status installSample(Project& project, const SampleInfo& sample) {
    if (sample.id.isEmpty())
        return Diagnostic::error("UNKNOWN_SAMPLE", "there is no such sample");
    CDC_TRY(project.newProject());
    Database& db = project.db();
    auto tx = storage::Transaction::begin(db, "cdc_install_sample");
    if (!tx)
        return tx.error();
    CDC_TRY(
        sql::executeSourceScript(db, sample.sources.toStdString(), sample.id.toStdString() + "/sources.sql"));
    auto events = captureEvents(db, sample.events, sample.id + QStringLiteral("/events.sql"));
    if (!events)
        return events.error();
    for (int i = 0; i < sample.steps.size(); ++i) {
        auto step = captureStep(db, sample.steps[i], sample.id + QStringLiteral("/steps/%1.sql").arg(i + 1));
        if (!step)
            return step.error();
        events->append(*step);
    }
    if (auto ids = projectstore::appendEvents(db, *events); !ids)
        return ids.error();
    CDC_TRY(projectstore::setValue(db, projectstore::kPipelineKey, sample.pipeline));
    if (sample.python)
        CDC_TRY(projectstore::setValue(db, projectstore::kPipelineLanguageKey, QStringLiteral("python")));
    CDC_TRY(projectstore::setValue(db, projectstore::kReadmeKey, sample.readme));
    CDC_TRY(projectstore::setValue(db, projectstore::kSampleKey, sample.id));
    CDC_TRY(
        projectstore::setValue(db, projectstore::kClockKey, QString::number(projectstore::kDefaultClock)));
    CDC_TRY(tx->commit());
    // The samples ship with the app: their Python is ours, and runs without asking (for this session only:
    // a saved sample is a file like any other).
    if (sample.python)
        project.trustPython(false);
    project.reloadWorkingCopy();
    return {};
}

} // namespace cdc::ui::sourcescripts
