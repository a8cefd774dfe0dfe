// cdcstudio-bench-gui: the GUI refresh figure. Builds a real SCD2 target of about 100,000 versions with
// the engine, then after each further small update times what the app does (ResultsController and the
// result panels): load the targets' snapshots — patched from the previous update's snapshots, as the
// app does right after an update — hand them to the result panels (rows table, SCD2 timeline,
// tombstones), whose models patch themselves, and paint the panels offscreen. Prints the median total in
// ms on stdout (the breakdown on stderr) for scripts/bench to pass on. `--full` times the full path
// instead (every target re-read, every model reset), as the app did before the incremental refresh.

#include "BenchDatabase.h"
#include "EngineApplier.h"
#include "SourceTable.h"
#include "Stopwatch.h"
#include "Workload.h"

#include "core/sql/SqlApi.h"
#include "ui/model/results/TargetSnapshot.h"
#include "ui/widgets/results/Scd2TimelinePanel.h"
#include "ui/widgets/results/TargetTablePanel.h"
#include "ui/widgets/results/TombstonePanel.h"

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
    bool full = false;                 ///< time the full reload instead of the incremental one
};

/// The panels that show the targets, fed the way ResultsController feeds them.
struct Panels {
    ui::TargetTablePanel table;
    ui::Scd2TimelinePanel timeline;
    ui::TombstonePanel tombstones;
    QImage image{1200, 800, QImage::Format_ARGB32_Premultiplied};

    Panels() {
        for (QWidget* w : {static_cast<QWidget*>(&table), static_cast<QWidget*>(&timeline),
                           static_cast<QWidget*>(&tombstones)}) {
            w->resize(image.size());
            w->show();
        }
    }
    void show(const QList<ui::TargetSnapshot>& snapshots) {
        timeline.setSnapshots(snapshots);
        table.setSnapshots(snapshots);
        tombstones.setSnapshots(snapshots);
    }
    void paint() {
        timeline.render(&image);
        table.render(&image);
    }
};

/// The offscreen platform warns on every shown window that it cannot propagate size hints: noise
/// between the breakdown lines on stderr.
QtMessageHandler defaultHandler = nullptr;
void quietHandler(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    if (!message.contains(QLatin1String("propagateSizeHints")))
        defaultHandler(type, context, message);
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
    cdc::sql::installSparkFunctions(); // as the programs do, before any connection is opened
    QApplication app(argc, argv);
    defaultHandler = qInstallMessageHandler(quietHandler);
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--rows" && i + 1 < argc)
            options.rows = std::max<std::int64_t>(1000, std::stoll(argv[++i]));
        else if (arg == "--full")
            options.full = true;
        else {
            std::cerr << "usage: cdcstudio-bench-gui [--rows N] [--full]\n";
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
        if (auto st = source->append(generator.next(std::max<std::int64_t>(1000, options.rows - versions)));
            !st)
            return fail(st.error());
        if (auto st = engine.apply(*db); !st)
            return fail(st.error());
        auto count = engine.visibleRows(*db);
        if (!count)
            return fail(count.error());
        versions = count.value();
    }

    Panels panels;
    auto shown = ui::loadTargetSnapshots(*db, ui::targetOrder(engine.pipeline()));
    if (!shown)
        return fail(shown.error());
    panels.show(shown.value());
    panels.paint();

    std::vector<double> load, timelinePanel, tablePanel, tombstonePanel, paint, total, cpu;
    int patched = 0;
    for (int r = 0; r < options.repetitions; ++r) {
        if (auto st = source->append(generator.next(options.updateEvents)); !st)
            return fail(st.error());
        if (auto st = engine.apply(*db); !st)
            return fail(st.error());
        Stopwatch watch;
        auto snapshots = ui::loadTargetSnapshots(*db, ui::targetOrder(engine.pipeline()),
                                                 options.full ? QList<ui::TargetSnapshot>() : shown.value());
        if (!snapshots)
            return fail(snapshots.error());
        const double loaded = watch.seconds();
        panels.timeline.setSnapshots(snapshots.value());
        const double timelined = watch.seconds();
        panels.table.setSnapshots(snapshots.value());
        const double tabled = watch.seconds();
        panels.tombstones.setSnapshots(snapshots.value());
        const double tombstoned = watch.seconds();
        panels.paint();
        const double painted = watch.seconds();
        load.push_back(loaded * 1000);
        timelinePanel.push_back((timelined - loaded) * 1000);
        tablePanel.push_back((tabled - timelined) * 1000);
        tombstonePanel.push_back((tombstoned - tabled) * 1000);
        paint.push_back((painted - tombstoned) * 1000);
        total.push_back(painted * 1000);
        cpu.push_back(watch.cpuSeconds() * 1000);
        for (const ui::TargetSnapshot& s : snapshots.value())
            patched += s.patch.baseSerial != 0;
        shown = std::move(snapshots);
    }
    const ui::TargetSnapshot* target =
        ui::findSnapshot(shown.value(), QString::fromLatin1(EngineApplier::kTarget));
    if (!target)
        return fail(Diagnostic::error("BENCH", "the snapshots have no target 'target'"));
    std::fprintf(
        stderr,
        "SCD2 target of %lld rows, after a %lld-event update (median of %d, %s refresh, %d of %d loads "
        "patched): snapshot load %.1f ms, timeline panel %.1f ms, table panel %.1f ms, tombstone panel "
        "%.1f ms, paint %.1f ms, total %.1f ms (CPU %.1f ms)\n",
        static_cast<long long>(target->rows.rows.size()), static_cast<long long>(options.updateEvents),
        options.repetitions, options.full ? "full" : "incremental", patched, options.repetitions,
        median(load), median(timelinePanel), median(tablePanel), median(tombstonePanel), median(paint),
        median(total), median(cpu));
    std::printf("%.1f\n", median(total));
    return 0;
}
