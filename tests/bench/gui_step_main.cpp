// cdcstudio-bench-gui-step: what a step costs in the app, not only in the engine. A ui::Project gets the
// benchmark's source table, pipeline and a queue of events (as an imported change feed puts them there),
// SimulationRunner delivers the history in U runs and then steps R times by a few thousand events, each
// run timed from start() until its undo step is pushed: delivering the queued events, the engine's update
// on the worker's connection, and what the app keeps for undo. Then the last step is undone and redone.
// Prints the median step and the engine's share of it in ms on stdout (a breakdown on stderr) for
// scripts/bench to pass on.

#include "SourceTable.h"
#include "Stopwatch.h"
#include "Workload.h"

#include "EngineApplier.h"

#include "core/sql/SqlApi.h"
#include "ui/model/Project.h"
#include "ui/model/ProjectStore.h"
#include "ui/model/SimulationRunner.h"
#include "ui/widgets/MainWindow.h"

#include <QApplication>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

using namespace cdc;
using namespace cdc::bench;

namespace {

struct Options {
    std::int64_t history = 1'000'000; ///< events delivered before the timed steps
    std::int64_t keys = 100'000;
    int updates = 10; ///< runs that deliver the history
    std::int64_t stepEvents = 10'000;
    int repetitions = 3;
    Scd scd = Scd::Type2;
    bool window = false; ///< the project of a shown MainWindow: its views refresh after every run too
    QString save;        ///< where to save the project at the end (to look at it in the app)
};

int fail(const Diagnostic& error) {
    std::cerr << "cdcstudio-bench-gui-step: " << error.format() << "\n";
    return 1;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

/// Queues `count` workload events, in chunks so that no one edit holds them all twice.
Status queueEvents(ui::Project& project, WorkloadGenerator& generator, std::int64_t count) {
    constexpr std::int64_t kChunk = 100'000;
    for (std::int64_t done = 0; done < count; done += kChunk) {
        QList<ui::QueuedEvent> events;
        for (const Event& e : generator.next(std::min(kChunk, count - done)))
            events << ui::QueuedEvent::row(0, QString::fromLatin1(SourceTable::kName),
                                           {Value(e.id),
                                            Value(std::string(WorkloadGenerator::name(e.nameIndex))),
                                            Value(std::string(WorkloadGenerator::city(e.cityIndex))),
                                            Value(std::string(operationName(e.operation))), Value(e.seq)});
        CDC_TRY(project.appendEvents(events, QStringLiteral("Queue events")));
    }
    return Status::success();
}

struct RunFigures {
    double wallMs = 0;
    double engineMs = 0; ///< the engine's own update time, as its report measured it
};

/// One run of the app's SimulationRunner: start() until the outcome is applied (undo step pushed).
Result<RunFigures> timedRun(ui::SimulationRunner& runner, const QList<int>& batches) {
    Stopwatch watch;
    Diagnostic error;
    if (!runner.start(batches, QStringLiteral("Run"), &error))
        return error;
    runner.waitForFinished();
    QCoreApplication::processEvents(); // what the views do with the news
    RunFigures figures{watch.seconds() * 1000, 0};
    if (runner.lastReports().size() != static_cast<std::size_t>(batches.size()))
        return Diagnostic::error("BENCH",
                                 "a run stopped early: " + std::to_string(runner.lastReports().size()) +
                                     " of " + std::to_string(batches.size()) + " updates ran");
    for (const engine::UpdateReport& report : runner.lastReports())
        figures.engineMs += report.durationMs;
    return figures;
}

} // namespace

int main(int argc, char** argv) {
    cdc::sql::installSparkFunctions(); // as the programs do, before any connection is opened
    QApplication app(argc, argv);
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool hasValue = i + 1 < argc;
        if (arg == "--history" && hasValue)
            options.history = std::max<std::int64_t>(1000, std::stoll(argv[++i]));
        else if (arg == "--keys" && hasValue)
            options.keys = std::max<std::int64_t>(1, std::stoll(argv[++i]));
        else if (arg == "--updates" && hasValue)
            options.updates = std::max(1, std::stoi(argv[++i]));
        else if (arg == "--step-events" && hasValue)
            options.stepEvents = std::max<std::int64_t>(1, std::stoll(argv[++i]));
        else if (arg == "--repetitions" && hasValue)
            options.repetitions = std::max(1, std::stoi(argv[++i]));
        else if (arg == "--window")
            options.window = true;
        else if (arg == "--save" && hasValue)
            options.save = QString::fromLocal8Bit(argv[++i]);
        else if (arg == "--scd" && hasValue)
            options.scd = std::string(argv[++i]) == "1" ? Scd::Type1 : Scd::Type2;
        else {
            std::cerr << "usage: cdcstudio-bench-gui-step [--history N] [--keys K] [--updates U] "
                         "[--step-events E] [--repetitions R] [--scd 1|2] [--window] [--save FILE]\n";
            return 2;
        }
    }

    std::unique_ptr<ui::MainWindow> window;
    std::unique_ptr<ui::Project> ownProject;
    if (options.window) {
        window = std::make_unique<ui::MainWindow>();
        window->resize(1400, 900);
        window->show();
    } else {
        ownProject = std::make_unique<ui::Project>();
    }
    ui::Project& project = window ? *window->project() : *ownProject;
    if (auto st = project.change(QStringLiteral("Create the source"),
                                 [](storage::Database& db) -> Status {
                                     auto source = SourceTable::create(db);
                                     return source ? Status::success() : Status(source.error());
                                 });
        !st)
        return fail(st.error());
    project.document()->reset(QString::fromStdString(benchmarkPipelineSql(options.scd)));

    WorkloadSpec spec;
    spec.keys = options.keys;
    WorkloadGenerator generator(spec);
    Stopwatch queueing;
    if (auto st = queueEvents(project, generator, options.history + options.stepEvents * options.repetitions);
        !st)
        return fail(st.error());
    std::fprintf(stderr, "queued %lld events in %.1f s\n",
                 static_cast<long long>(options.history + options.stepEvents * options.repetitions),
                 queueing.seconds());

    ui::SimulationRunner runner(&project);
    const int perUpdate = static_cast<int>((options.history + options.updates - 1) / options.updates);
    std::vector<double> historyMs;
    double historyEngineMs = 0;
    for (std::int64_t done = 0; done < options.history; done += perUpdate) {
        auto run =
            timedRun(runner, {static_cast<int>(std::min<std::int64_t>(perUpdate, options.history - done))});
        if (!run)
            return fail(run.error());
        historyMs.push_back(run->wallMs);
        historyEngineMs += run->engineMs;
    }
    double historyTotal = 0;
    for (double ms : historyMs)
        historyTotal += ms;

    std::vector<double> stepMs, stepEngineMs;
    for (int r = 0; r < options.repetitions; ++r) {
        auto run = timedRun(runner, {static_cast<int>(options.stepEvents)});
        if (!run)
            return fail(run.error());
        stepMs.push_back(run->wallMs);
        stepEngineMs.push_back(run->engineMs);
    }
    Stopwatch undoWatch;
    project.undoStack()->undo();
    const double undoMs = undoWatch.seconds() * 1000;
    Stopwatch redoWatch;
    project.undoStack()->redo();
    const double redoMs = redoWatch.seconds() * 1000;

    std::fprintf(stderr,
                 "SCD%d, %lld events of history over %lld keys delivered in %d runs: %.1f s in the app "
                 "(engine %.1f s); a %lld-event step (median of %d): %.1f ms in the app, engine %.1f ms; "
                 "undo %.1f ms, redo %.1f ms; working copy %s\n",
                 options.scd == Scd::Type1 ? 1 : 2, static_cast<long long>(options.history),
                 static_cast<long long>(options.keys), static_cast<int>(historyMs.size()),
                 historyTotal / 1000, historyEngineMs / 1000, static_cast<long long>(options.stepEvents),
                 options.repetitions, median(stepMs), median(stepEngineMs), undoMs, redoMs,
                 qPrintable(project.workingPath()));
    if (!options.save.isEmpty())
        if (auto st = project.saveAs(options.save); !st)
            return fail(st.error());
    std::printf("%.1f %.1f\n", median(stepMs), median(stepEngineMs));
    return 0;
}
