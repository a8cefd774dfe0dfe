// Edits of a few rows of the queue or the settings take Project::changeRows: write in a savepoint while
// the session extension records the rows, push a ChangesetCommand. Every other edit takes Project::change:
// snapshot, write in a savepoint, snapshot again, push a SnapshotCommand. A simulation run pushes a
// RunCommand instead: it rewinds with the engine's undo information rather than copying the whole project
// twice per step. The working copy runs in WAL so the update thread can write while the GUI reads.
#include "ui/model/Project.h"

#include "core/engine/Engine.h"
#include "core/storage/Backup.h"
#include "core/storage/Catalog.h"
#include "core/storage/Changeset.h"
#include "core/storage/ForeignObjects.h"
#include "ui/model/AtomicSave.h"
#include "ui/model/ChangesetCommand.h"
#include "ui/model/PythonTrust.h"
#include "ui/model/SnapshotCommand.h"
#include "ui/model/WorkingCopyFolder.h"

#include <QFile>
#include <QFileInfo>
#include <QLocale>

#include <algorithm>

namespace cdc::ui {

using storage::Database;

Project::Project(QObject* parent)
    : QObject(parent), m_document(new PipelineDocument(this, &m_undo, this)),
      m_positions(new NodePositions(&m_undo, this)) {
    m_undo.setUndoLimit(kUndoLimit);
    connect(&m_undo, &QUndoStack::cleanChanged, this, [this] { notifyModified(); });
    connect(this, &Project::dataChanged, this, &Project::applyVolumesFolder);
    connect(this, &Project::filePathChanged, this, &Project::applyVolumesFolder);
    // A project always has a working copy, so views can read from the start.
    if (auto st = newProject(); !st)
        qWarning("cannot create the working copy: %s", st.error().message.c_str());
}

Project::~Project() {
    emit workingCopyClosing();
    // Going away is not "no longer modified": clearing the history must not tell the autosave to delete
    // the unsaved work (a window destroyed without closing is a crash to recover from).
    blockSignals(true);
    // Commands hold a reference to the working connection: drop them first.
    m_undo.clear();
}

bool Project::workingCopyInMemory() const {
    return m_dir && m_dir->inMemory();
}

QString Project::workingPath() const {
    return m_db ? QString::fromStdString(m_db->path()) : QString();
}

QString Project::displayName() const {
    if (!m_filePath.isEmpty())
        return QFileInfo(m_filePath).fileName();
    if (!m_origin.isEmpty())
        return QFileInfo(m_origin).fileName(); // an opened pipeline file, not saved as a project yet
    const QString sample = sampleId();
    return sample.isEmpty() ? tr("Untitled") : tr("%1 (sample)").arg(sample);
}

namespace {

/// The size of `db` in bytes (0 when it cannot tell).
std::uint64_t databaseBytes(const Database& db) {
    auto size = db.prepare("SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()");
    if (!size)
        return 0;
    auto row = size->step();
    if (!row || !row.value())
        return 0;
    return static_cast<std::uint64_t>(std::max<std::int64_t>(0, size->int64(0)));
}

} // namespace

Status Project::resetWorkingCopy(Database* source, const QString& filePath, const QString& origin,
                                 const CopyPages& copy) {
    auto dir = WorkingCopyFolder::create(source ? databaseBytes(*source) : 0);
    if (!dir)
        return Diagnostic::error("IO", "cannot create a folder for the working copy");
    const std::string path = dir->filePath("working.cdcstudio").toStdString();
    auto db = Database::open(path, Database::Mode::ReadWriteCreate);
    if (!db)
        return db.error();
    // Until the copy is complete nothing is replaced: a failed or cancelled copy goes with `dir`.
    if (source)
        CDC_TRY(copy ? copy(*source, *db) : storage::copyDatabase(*source, *db));
    // WAL lets the update thread write on its own connection while the GUI keeps reading.
    CDC_TRY(db->exec("PRAGMA journal_mode = WAL"));
    CDC_TRY(projectstore::ensureSchema(*db));

    emit workingCopyClosing();
    m_undo.clear();
    m_db = std::make_unique<Database>(std::move(db).value());
    m_dir = std::move(dir);
    // The new path is in place before anyone hears of the new project: views that show its name read it then.
    const bool pathChanged = filePath != m_filePath;
    m_filePath = filePath;
    m_origin = origin;
    // Trust is the user's earlier answer for this very file, never something the file says of itself.
    const bool trusted = pythontrust::isTrusted(trustFile());
    const bool trustChanged = trusted != m_pythonTrusted;
    m_pythonTrusted = trusted;
    applyVolumesFolder(); // before the document's first validation reads any file
    m_undo.setClean();
    resetDocument();
    if (trustChanged)
        emit pythonTrustChanged(m_pythonTrusted);
    if (pathChanged)
        emit filePathChanged(m_filePath);
    emit projectReplaced();
    emit dataChanged();
    notifyModified();
    return {};
}

void Project::resetDocument() {
    const bool python =
        projectstore::value(*m_db, projectstore::kPipelineLanguageKey, QString()) == QLatin1String("python");
    m_document->reset(projectstore::value(*m_db, projectstore::kPipelineKey, QString()),
                      python ? PipelineLanguage::Python : PipelineLanguage::Sql);
    m_positions->reset(
        NodePositions::fromJson(projectstore::value(*m_db, projectstore::kNodePositionsKey, QString())));
}

void Project::reloadWorkingCopy() {
    m_undo.clear();
    m_undo.setClean();
    resetDocument();
    emit projectReplaced();
    emit dataChanged();
    notifyModified();
}

Status Project::newProject() {
    return resetWorkingCopy(nullptr, QString());
}

namespace {

/// A project file (or an autosave of one) opened for reading once it has passed what can be checked before a
/// page of it is read: it exists, its apparent size is at most Project::kMaxProjectBytes (the working copy
/// would be as large, sparse file or not), and it is a SQLite database.
Result<Database> openProjectFile(const QString& filePath) {
    const QFileInfo info(filePath);
    if (!info.isFile())
        return Diagnostic::error("IO", "'" + filePath.toStdString() + "' does not exist or is not a file");
    if (info.size() > Project::kMaxProjectBytes) {
        const QLocale c = QLocale::c();
        // "3.0 GiB" stays on one line wherever the message wraps.
        const auto size = [&c](qint64 bytes, int precision) {
            return c.formattedDataSize(bytes, precision, QLocale::DataSizeIecFormat)
                .replace(QLatin1Char(' '), QChar(0x00A0))
                .toStdString();
        };
        return Diagnostic::error("PROJECT_TOO_LARGE",
                                 "'" + filePath.toStdString() + "' is " + size(info.size(), 1) +
                                     ": CDC Studio opens project files of at most " +
                                     size(Project::kMaxProjectBytes, 0) +
                                     " (it works on a full copy of the file); nothing was "
                                     "read or copied");
    }
    auto source = Database::open(filePath.toStdString(), Database::Mode::ReadOnly);
    if (!source)
        return source.error();
    // Reading the schema proves it is a SQLite database before anything is replaced.
    if (auto probe = source->prepare("SELECT count(*) FROM sqlite_schema"); !probe)
        return Diagnostic::error("NOT_A_PROJECT",
                                 "'" + filePath.toStdString() +
                                     "' is not a CDC Studio project: " + probe.error().message);
    return source;
}

} // namespace

Status Project::open(const QString& filePath, bool removeForeignObjects, const CopyPages& copy) {
    auto source = openProjectFile(filePath);
    if (!source)
        return source.error();
    const QFileInfo info(filePath);
    // A project someone sent is untrusted: checked (schema and registry only, nothing of it runs) before it
    // replaces anything. Triggers and views we did not make would run inside our own writes and reads.
    const Status verified = engine::verifyProject(*source);
    const std::string problem = verified ? std::string() : verified.error().code;
    const bool opensAnyway = problem.empty() || problem == "TARGET_DAMAGED" ||
                             (problem == "FOREIGN_OBJECTS" && removeForeignObjects);
    if (!opensAnyway)
        return verified.error();
    CDC_TRY(resetWorkingCopy(&*source, info.absoluteFilePath(), {}, copy));
    if (problem == "FOREIGN_OBJECTS") {
        // Removed from the working copy only: the file changes when the user saves.
        auto removed = storage::dropForeignObjects(*m_db);
        if (!removed)
            return removed.error();
        m_undo.resetClean();
        notifyModified();
    }
    // A damaged target opens (its rows can still be looked at) but does not update until a full refresh
    // rebuilds it: the Issues list says so from the start.
    if (problem == "TARGET_DAMAGED")
        m_document->setRuntimeDiagnostics({verified.error()});
    return {};
}

Status Project::openPipelineFile(const QString& filePath) {
    // A pipeline is text a person wrote; anything larger is not one (and would stall the editor).
    constexpr qint64 kMaxPipelineBytes = 4 * 1024 * 1024;
    const QFileInfo info(filePath);
    if (!info.isFile())
        return Diagnostic::error("IO", "'" + filePath.toStdString() + "' does not exist or is not a file");
    if (info.size() > kMaxPipelineBytes)
        return Diagnostic::error("PIPELINE_TOO_LARGE", "'" + filePath.toStdString() + "' has " +
                                                           std::to_string(info.size()) +
                                                           " bytes: a pipeline file may have at most " +
                                                           std::to_string(kMaxPipelineBytes));
    QFile file(filePath);
    if (!file.open(QIODevice::ReadOnly))
        return Diagnostic::error("IO", "cannot read '" + filePath.toStdString() +
                                           "': " + file.errorString().toStdString());
    const QByteArray bytes = file.readAll();
    const bool python = info.suffix().compare(QLatin1String("py"), Qt::CaseInsensitive) == 0;
    // Written before the working copy is made current, so the document's first parse sees the file.
    auto fill = Database::open(":memory:", Database::Mode::ReadWriteCreate);
    if (!fill)
        return fill.error();
    CDC_TRY(projectstore::ensureSchema(*fill));
    CDC_TRY(projectstore::setValue(*fill, projectstore::kPipelineKey, QString::fromUtf8(bytes)));
    if (python)
        CDC_TRY(projectstore::setValue(*fill, projectstore::kPipelineLanguageKey, QStringLiteral("python")));
    // The file's folder is where its /Volumes/... paths lead (the seed's pipelines read files there).
    CDC_TRY(projectstore::setValue(*fill, projectstore::kVolumesKey, info.absolutePath()));
    return resetWorkingCopy(&*fill, QString(), info.absoluteFilePath());
}

void Project::trustPython(bool remember) {
    if (remember && !trustFile().isEmpty())
        pythontrust::trust(trustFile());
    if (m_pythonTrusted)
        return;
    m_pythonTrusted = true;
    emit pythonTrustChanged(true);
    if (m_document->isPython())
        m_document->reparseNow();
}

Status Project::openRecovered(const QString& autosavePath, const QString& originalPath) {
    // An autosave is a file on disk like any other: the same size limit, and the same check of what it holds
    // (it was written by us, but it may have been damaged or replaced since).
    auto source = openProjectFile(autosavePath);
    if (!source)
        return source.error();
    const Status verified = engine::verifyProject(*source);
    if (!verified && verified.error().code != "TARGET_DAMAGED")
        return verified.error();
    CDC_TRY(resetWorkingCopy(&*source, originalPath.isEmpty() ? QString()
                                                              : QFileInfo(originalPath).absoluteFilePath()));
    // Unsaved work it was and unsaved it stays: Save writes it to the original file.
    m_undo.resetClean();
    notifyModified();
    if (!verified)
        m_document->setRuntimeDiagnostics({verified.error()});
    return {};
}

Status Project::saveAs(const QString& filePath) {
    if (filePath.isEmpty())
        return Diagnostic::error("IO", "no file name to save to");
    CDC_TRY(storeDocument());
    // Written aside and renamed over the file: a failed save leaves the previous file as it was.
    CDC_TRY(atomicsave::writeCopy(*m_db, filePath));
    m_filePath = QFileInfo(filePath).absoluteFilePath();
    // The user ran this pipeline in this session: their own saved copy does not ask again.
    if (m_pythonTrusted && m_document->isPython())
        pythontrust::trust(m_filePath);
    markClean();
    emit filePathChanged(m_filePath);
    return {};
}

void Project::markClean() {
    m_undo.setClean();
    notifyModified();
}

Status Project::storeDocument() {
    // Written only when different: an unchanged project saves the same bytes.
    const auto store = [this](const char* key, const QString& value) -> Status {
        if (projectstore::value(*m_db, key, QString()) == value)
            return {};
        return projectstore::setValue(*m_db, key, value);
    };
    CDC_TRY(store(projectstore::kPipelineKey, m_document->text()));
    if (m_document->isPython())
        CDC_TRY(store(projectstore::kPipelineLanguageKey, QStringLiteral("python")));
    return store(projectstore::kNodePositionsKey, NodePositions::toJson(m_positions->positions()));
}

qint64 Project::clock() const {
    return projectstore::intValue(*m_db, projectstore::kClockKey, projectstore::kDefaultClock);
}
qint64 Project::clockTick() const {
    return projectstore::intValue(*m_db, projectstore::kClockTickKey, projectstore::kDefaultTick);
}
QString Project::readme() const {
    return projectstore::value(*m_db, projectstore::kReadmeKey, QString());
}
QString Project::sampleId() const {
    return projectstore::value(*m_db, projectstore::kSampleKey, QString());
}

Result<std::shared_ptr<Database>> Project::snapshot() {
    auto copy = storage::snapshotToMemory(*m_db);
    if (!copy)
        return copy.error();
    return std::make_shared<Database>(std::move(copy).value());
}

void Project::pushExternalChange(const QString& text, std::shared_ptr<Database> before) {
    auto after = snapshot();
    if (!after) {
        qWarning("cannot record the change for undo: %s", after.error().message.c_str());
        emit dataChanged();
        return;
    }
    m_undo.push(new SnapshotCommand(text, *m_db, std::move(before), std::move(after).value(),
                                    [this] { emit dataChanged(); }));
    emit dataChanged();
}

Result<RunUndoPoint> Project::runUndoPoint(const pipeline::Pipeline& pipeline, int events, bool fullRefresh) {
    RunUndoPoint point;
    auto rewindable = RunStart::rewindable(*m_db, pipeline, events, fullRefresh);
    if (!rewindable)
        return rewindable.error();
    if (*rewindable) {
        auto start = RunStart::read(*m_db);
        if (!start)
            return start.error();
        point.start = std::move(start).value();
    } else {
        auto copy = snapshot();
        if (!copy)
            return copy.error();
        point.snapshot = std::move(copy).value();
    }
    return point;
}

void Project::pushRun(const QString& text, RunUndoPoint before) {
    if (!before.start) {
        pushExternalChange(text, std::move(before.snapshot));
        return;
    }
    // The engine's undo information does not cover schema changes: rewindable() must have foreseen them.
    if (auto version = m_db->prepare("PRAGMA schema_version");
        version && version->step().ok() && version->int64(0) != before.start->schemaVersion)
        qWarning("the run changed the schema: undoing it by rewinding leaves the new objects in place");
    m_undo.push(new RunCommand(text, *m_db, std::move(*before.start), [this] { emit dataChanged(); }));
    emit dataChanged();
}

Status Project::change(const QString& text, const std::function<Status(Database&)>& change, Redo redo) {
    if (m_busy)
        return Diagnostic::error("BUSY", "an update is running; wait for it or cancel it first");
    auto before = snapshot();
    if (!before)
        return before.error();
    {
        auto tx = storage::Transaction::begin(*m_db, "cdc_gui_change");
        if (!tx)
            return tx.error();
        CDC_TRY(change(*m_db));
        CDC_TRY(tx->commit());
    }
    if (redo == Redo::FromCopy) {
        pushExternalChange(text, std::move(before).value());
        return {};
    }
    m_undo.push(
        new SnapshotCommand(text, *m_db, std::move(before).value(), change, [this] { emit dataChanged(); }));
    emit dataChanged();
    return {};
}

Status Project::changeRows(const QString& text, std::initializer_list<std::string_view> tables,
                           const std::function<Status(Database&)>& change) {
    if (m_busy)
        return Diagnostic::error("BUSY", "an update is running; wait for it or cancel it first");
    storage::Changeset forward;
    {
        auto tx = storage::Transaction::begin(*m_db, "cdc_gui_change");
        if (!tx)
            return tx.error();
        auto recorder = storage::ChangeRecorder::start(*m_db, tables);
        if (!recorder)
            return recorder.error();
        CDC_TRY(change(*m_db));
        auto changes = recorder->changes();
        if (!changes)
            return changes.error();
        forward = std::move(changes).value();
        CDC_TRY(tx->commit());
    }
    auto backward = forward.inverted();
    if (!backward) {
        // Written, but it could not become a step: the history no longer leads back past it.
        qWarning("cannot record the change for undo: %s", backward.error().message.c_str());
        m_undo.clear();
        emit dataChanged();
        return {};
    }
    m_undo.push(new ChangesetCommand(text, *m_db, std::move(forward), std::move(backward).value(),
                                     [this] { emit dataChanged(); }));
    emit dataChanged();
    return {};
}

Status Project::appendEvents(const QList<QueuedEvent>& events, const QString& text) {
    return changeRows(text, {kQueueTable}, [&](Database& db) -> Status {
        auto ids = projectstore::appendEvents(db, events);
        if (!ids)
            return ids.error();
        return {};
    });
}

Status Project::updateEvent(const QueuedEvent& event) {
    return changeRows(tr("Edit event %1").arg(event.id), {kQueueTable},
                      [&](Database& db) { return projectstore::updateEvent(db, event); });
}

Status Project::removeEvents(const QList<qint64>& ids) {
    return changeRows(ids.size() == 1 ? tr("Delete event") : tr("Delete %n events", nullptr, int(ids.size())),
                      {kQueueTable}, [&](Database& db) { return projectstore::removeEvents(db, ids); });
}

Status Project::reorderEvents(const QList<qint64>& orderedIds) {
    return changeRows(tr("Reorder events"), {kQueueTable},
                      [&](Database& db) { return projectstore::reorderEvents(db, orderedIds); });
}

Status Project::advanceClock(qint64 seconds) {
    const qint64 next = clock() + seconds;
    return changeRows(tr("Advance clock"), {kSettingsTable}, [&](Database& db) {
        return projectstore::setValue(db, projectstore::kClockKey, QString::number(next));
    });
}

Status Project::setVolumesSetting(const QString& folder) {
    return changeRows(tr("Set Volumes folder"), {kSettingsTable}, [&](Database& db) {
        return projectstore::setValue(db, projectstore::kVolumesKey, folder);
    });
}

std::chrono::milliseconds Project::queryTimeout() const {
    const qint64 seconds = projectstore::intValue(*m_db, projectstore::kQueryTimeoutKey, 0);
    if (seconds <= 0)
        return kDefaultQueryTimeout;
    return std::chrono::seconds(std::min<qint64>(seconds, kMaxQueryTimeoutSeconds));
}

Status Project::setQueryTimeoutSetting(int seconds) {
    const int clamped = std::clamp(seconds, 1, kMaxQueryTimeoutSeconds);
    return changeRows(tr("Set query time limit"), {kSettingsTable}, [clamped](Database& db) {
        return projectstore::setValue(db, projectstore::kQueryTimeoutKey, QString::number(clamped));
    });
}

QString Project::volumesSetting() const {
    return projectstore::value(*m_db, projectstore::kVolumesKey, QString());
}

QString Project::volumesFolder() const {
    const QString setting = volumesSetting();
    if (!setting.isEmpty())
        return setting;
    return m_filePath.isEmpty() ? QString() : QFileInfo(m_filePath).absolutePath();
}

void Project::applyVolumesFolder() {
    // The working copy lives in a temporary folder: without this its connection would look there.
    if (m_db)
        m_db->setVolumes(VolumeRoot(volumesFolder().toStdString()));
}

void Project::notifyModified() {
    const bool modified = isModified();
    if (modified != m_lastModified) {
        m_lastModified = modified;
        emit modifiedChanged(modified);
    }
}

Status Project::loadCounterexample(const engine::Counterexample& counterexample,
                                   const std::vector<std::string>& streamTables) {
    return change(tr("Load counterexample"), [&](storage::Database& db) -> Status {
        CDC_TRY(projectstore::undeliverAfter(db, 0));
        CDC_TRY(projectstore::rewindClock(db, 0));
        CDC_TRY(engine::rewindTo(db, 0));
        for (const std::string& name : streamTables) {
            auto table = storage::Catalog::find(db, name);
            if (!table)
                return table.error();
            if (*table)
                CDC_TRY(db.exec("DELETE FROM " + storage::quoteIdentifier((*table)->sqliteName)));
        }
        auto queued = projectstore::events(db);
        if (!queued)
            return queued.error();
        QList<qint64> ids;
        for (const QueuedEvent& e : *queued)
            ids << e.id;
        CDC_TRY(projectstore::removeEvents(db, ids));
        QList<QueuedEvent> arrived;
        for (std::size_t i : counterexample.arrival.events) {
            const engine::SourceEvent& e = counterexample.events[i];
            arrived << QueuedEvent::row(0, QString::fromStdString(e.table), e.values);
        }
        if (auto added = projectstore::appendEvents(db, arrived); !added)
            return added.error();
        return Status::success();
    });
}

Status Project::rewindTo(qint64 updateId) {
    if (updateId < 0)
        return Diagnostic::error("NOTHING_TO_REWIND", "select an update to rewind to");
    // The updates it undoes are only in the copy taken before; redo rewinds again (it costs what it undoes)
    // rather than keeping a second copy.
    return change(
        updateId == 0 ? tr("Rewind to the start") : tr("Rewind to update %1").arg(updateId),
        [updateId](storage::Database& db) -> Status {
            CDC_TRY(projectstore::undeliverAfter(db, updateId));
            CDC_TRY(projectstore::rewindClock(db, updateId));
            return engine::rewindTo(db, updateId);
        },
        Redo::ByReplaying);
}

} // namespace cdc::ui
