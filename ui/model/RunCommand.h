#pragma once
/// The undo step of a simulation run. A run changes what the engine keeps undo information for (targets,
/// change feeds, tombstones, the update log: engine::rewindTo) and what the app records itself (the
/// delivered events: projectstore::undeliverAfter; the clock: the project settings). Undo rewinds with
/// those, so a step costs what it changed rather than two copies of the whole project (a 10,000-event
/// step on a 1M-event project spent 1.3 s of its 1.5 s copying; docs/performance.md).

#include "core/pipeline/Pipeline.h"
#include "core/storage/Database.h"

#include <QUndoCommand>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cdc::ui {

/// What undoing a run returns to, read before it starts: the last update before it and the project
/// settings (a few short rows: the pipeline text, the clock and its start).
struct RunStart {
    qint64 lastUpdate = 0;
    struct Setting {
        std::int64_t rowid;
        std::string key;
        std::string value;
    };
    std::vector<Setting> settings;  ///< rowids too: undo gives back the very rows
    std::int64_t schemaVersion = 0; ///< a rewindable run leaves the schema as it was

    static Result<RunStart> read(storage::Database& db);
    /// Whether rewinding undoes a run exactly. Not when the run changes the schema, which the engine's undo
    /// information does not cover: a full refresh (it may rebuild targets), a dataset no update has stored
    /// yet (its first update creates its tables), or a queued step among the events it delivers (a source
    /// script may create or alter tables). Those runs keep a whole copy, as every edit does.
    static Result<bool> rewindable(storage::Database& db, const pipeline::Pipeline& pipeline, int events,
                                   bool fullRefresh);
};

/// How a run will be undone, decided before it starts: by rewinding (`start`) or from a whole copy.
struct RunUndoPoint {
    std::optional<RunStart> start;
    std::shared_ptr<storage::Database> snapshot;
};

class RunCommand : public QUndoCommand {
public:
    using Restored = std::function<void()>;
    RunCommand(const QString& text, storage::Database& db, RunStart start, Restored onRestored);

    /// Rewinds the run's updates in one transaction. The first undo keeps a copy of the state after the
    /// run for redo: only an undone run costs a copy, and only while it can be redone.
    void undo() override;
    /// Restores that copy (the first redo is skipped: the run already happened).
    void redo() override;

private:
    Status rewind();
    storage::Database& m_db;
    RunStart m_start;
    std::shared_ptr<storage::Database> m_after;
    Restored m_onRestored;
    bool m_firstRedo = true;
};

} // namespace cdc::ui
