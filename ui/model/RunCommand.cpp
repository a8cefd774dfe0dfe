#include "ui/model/RunCommand.h"

#include "core/engine/Engine.h"
#include "core/storage/Backup.h"
#include "core/storage/Catalog.h"
#include "ui/model/ProjectStore.h"

#include <QDebug>

namespace cdc::ui {

Result<RunStart> RunStart::read(storage::Database& db) {
    RunStart start;
    auto last = engine::lastUpdateId(db);
    if (!last)
        return last.error();
    start.lastUpdate = *last;
    auto stmt = db.prepare("SELECT rowid, key, value FROM __cdc_project");
    if (!stmt)
        return stmt.error();
    CDC_TRY(stmt->forEachRow([&start](const storage::Statement& row) {
        start.settings.push_back({row.int64(0), row.text(1), row.text(2)});
    }));
    auto version = db.prepare("PRAGMA schema_version");
    if (!version)
        return version.error();
    if (auto has = version->step(); !has)
        return has.error();
    start.schemaVersion = version->int64(0);
    return start;
}

Result<bool> RunStart::rewindable(storage::Database& db, const pipeline::Pipeline& pipeline, int events,
                                  bool fullRefresh) {
    if (fullRefresh)
        return false;
    std::vector<const std::string*> stored;
    for (const auto& table : pipeline.streamingTables)
        stored.push_back(&table.name.name);
    for (const auto& view : pipeline.views)
        if (view.materialized)
            stored.push_back(&view.name.name);
    for (const std::string* name : stored) {
        auto found = storage::Catalog::find(db, *name);
        if (!found)
            return found.error();
        if (!*found)
            return false;
    }
    auto steps = projectstore::headHasSteps(db, events);
    if (!steps)
        return steps.error();
    return !*steps;
}

RunCommand::RunCommand(const QString& text, storage::Database& db, RunStart start, Restored onRestored)
    : m_db(db), m_start(std::move(start)), m_onRestored(std::move(onRestored)) {
    setText(text);
}

Status RunCommand::rewind() {
    auto tx = storage::Transaction::begin(m_db, "cdc_undo_run");
    if (!tx)
        return tx.error();
    CDC_TRY(projectstore::undeliverAfter(m_db, m_start.lastUpdate));
    CDC_TRY(engine::rewindTo(m_db, m_start.lastUpdate));
    CDC_TRY(m_db.exec("DELETE FROM __cdc_project"));
    auto insert = m_db.prepare("INSERT INTO __cdc_project(rowid, key, value) VALUES(?, ?, ?)");
    if (!insert)
        return insert.error();
    for (const RunStart::Setting& setting : m_start.settings) {
        insert->reset();
        insert->bind(1, setting.rowid)
            .bind(2, std::string_view(setting.key))
            .bind(3, std::string_view(setting.value));
        CDC_TRY(insert->run());
    }
    return tx->commit();
}

void RunCommand::undo() {
    if (!m_after) {
        auto copy = storage::snapshotToMemory(m_db);
        if (!copy) {
            qWarning("cannot keep the state after the run for redo: %s", copy.error().message.c_str());
            return;
        }
        m_after = std::make_shared<storage::Database>(std::move(copy).value());
    }
    if (auto st = rewind(); !st)
        qWarning("cannot undo the run: %s", st.error().message.c_str());
    if (m_onRestored)
        m_onRestored();
}

void RunCommand::redo() {
    // The run already happened when the command was pushed.
    if (std::exchange(m_firstRedo, false))
        return;
    if (m_after)
        if (auto st = storage::copyDatabase(*m_after, m_db); !st)
            qWarning("cannot redo the run: %s", st.error().message.c_str());
    if (m_onRestored)
        m_onRestored();
}

} // namespace cdc::ui
