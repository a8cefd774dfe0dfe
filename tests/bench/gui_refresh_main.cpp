// cdcstudio-bench-gui: the GUI refresh figure. Builds a real SCD2 target of about 100,000 versions with
// the engine, then after each further small update times what the GUI does: load the target's snapshot,
// refresh the result models, and paint the visible part of the SCD2 timeline (offscreen). Prints the
// median total in ms on stdout (the breakdown on stderr) for scripts/bench to pass on.

#include "BenchDatabase.h"
#include "EngineApplier.h"
#include "SourceTable.h"
#include "Stopwatch.h"
#include "Workload.h"

#include "core/engine/Engine.h"
#include "core/sql/SqlApi.h"
#include "ui/model/results/Scd2TimelineModel.h"
#include "ui/model/results/TargetRowsModel.h"
#include "ui/widgets/results/Scd2TimelineView.h"

#include <QApplication>
#include <QImage>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

using namespace cdc;
using namespace cdc::bench;

namespace {

struct Options {
    std::int64_t rows = 100'000;
    int repetitions = 5;
    std::int64_t updateEvents = 1'000; ///< events of each update after which the views refresh
};

/// What the result views show of the target after the last update (TargetSnapshot's documented content).
Result<ui::TargetSnapshot> loadSnapshot(storage::Database& db) {
    const std::string target = EngineApplier::kTarget;
    ui::TargetSnapshot s;
    s.target = QString::fromStdString(target);
    s.scd2 = true;
    s.keyColumns = {QStringLiteral("id")};
    s.sequenceType = QStringLiteral("BIGINT");
    auto update = engine::lastUpdateId(db);
    if (!update)
        return update.error();
    s.updateId = update.value();
    auto rows = sql::runQuery(db, "SELECT * FROM " + target + " ORDER BY id, __START_AT");
    if (!rows)
        return rows.error();
    s.rows = std::move(rows).value();
    const std::string id = std::to_string(s.updateId);
    auto changes = sql::runQuery(db, "SELECT * FROM table_changes('" + target + "', " + id + ", " + id + ")");
    if (!changes)
        return changes.error();
    s.changes = std::move(changes).value();
    auto tombstones = engine::tombstones(db, target);
    if (!tombstones)
        return tombstones.error();
    s.tombstones = std::move(tombstones).value();
    auto collected = engine::collectedTombstones(db, target, s.updateId);
    if (!collected)
        return collected.error();
    s.collected = std::move(collected).value();
    return s;
}

int fail(const Diagnostic& error) {
    std::cerr << "cdcstudio-bench-gui: " << error.format() << "\n";
    return 1;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--rows" && i + 1 < argc)
            options.rows = std::max<std::int64_t>(1000, std::stoll(argv[++i]));
        else {
            std::cerr << "usage: cdcstudio-bench-gui [--rows N]\n";
            return 2;
        }
    }

    QTemporaryDir dir;
    auto db = openFreshDatabase(dir.filePath(QStringLiteral("gui-refresh.db")).toStdString(), {});
    if (!db)
        return fail(db.error());
    auto source = SourceTable::create(*db);
    if (!source)
        return fail(source.error());
    EngineApplier engine(Scd::Type2);
    if (auto st = engine.setUp(*db); !st)
        return fail(st.error());

    // About five versions per key; keep adding events until the target holds the requested rows.
    WorkloadSpec spec;
    spec.keys = options.rows / 5;
    WorkloadGenerator generator(spec);
    std::int64_t versions = 0;
    while (versions < options.rows) {
        if (auto st = source->append(generator.next(std::max<std::int64_t>(1000, options.rows - versions))); !st)
            return fail(st.error());
        if (auto st = engine.apply(*db); !st)
            return fail(st.error());
        auto count = engine.visibleRows(*db);
        if (!count)
            return fail(count.error());
        versions = count.value();
    }

    ui::Scd2TimelineModel timeline;
    ui::TargetRowsModel rows;
    ui::Scd2TimelineView view;
    view.setModel(&timeline);
    view.resize(1200, 800);
    QImage image(view.viewport()->size(), QImage::Format_ARGB32_Premultiplied);
    {
        auto before = loadSnapshot(*db);
        if (!before)
            return fail(before.error());
        timeline.setSnapshot(before.value());
        rows.setSnapshot(before.value());
        view.viewport()->render(&image);
    }

    std::vector<double> load, timelineModel, rowsModel, paint, total, cpu;
    for (int r = 0; r < options.repetitions; ++r) {
        if (auto st = source->append(generator.next(options.updateEvents)); !st)
            return fail(st.error());
        if (auto st = engine.apply(*db); !st)
            return fail(st.error());
        Stopwatch watch;
        auto snapshot = loadSnapshot(*db);
        if (!snapshot)
            return fail(snapshot.error());
        const double loaded = watch.seconds();
        timeline.setSnapshot(snapshot.value());
        const double timelined = watch.seconds();
        rows.setSnapshot(snapshot.value());
        const double refreshed = watch.seconds();
        view.viewport()->render(&image);
        const double painted = watch.seconds();
        load.push_back(loaded * 1000);
        timelineModel.push_back((timelined - loaded) * 1000);
        rowsModel.push_back((refreshed - timelined) * 1000);
        paint.push_back((painted - refreshed) * 1000);
        total.push_back(painted * 1000);
        cpu.push_back(watch.cpuSeconds() * 1000);
    }
    std::fprintf(stderr,
                 "SCD2 target of %lld rows (%d lanes), after a %lld-event update (median of %d): snapshot load "
                 "%.1f ms, timeline model %.1f ms, table model %.1f ms, visible timeline paint %.1f ms, "
                 "total %.1f ms (CPU %.1f ms)\n",
                 static_cast<long long>(rows.totalRows()), static_cast<int>(timeline.lanes().size()),
                 static_cast<long long>(options.updateEvents), options.repetitions, median(load),
                 median(timelineModel), median(rowsModel), median(paint), median(total), median(cpu));
    std::printf("%.1f\n", median(total));
    return 0;
}
