// The wording depends on the cause: a schema change makes the next update refuse to run, a changed
// expression only leaves processed rows stale.
#include "ui/widgets/OutdatedBanner.h"

#include <QStringList>

namespace cdc::ui {

OutdatedBanner::OutdatedBanner(QAction* fullRefresh, QWidget* parent) : NoticeBanner(fullRefresh, parent) {
    setObjectName(QStringLiteral("outdatedBanner"));
}

void OutdatedBanner::setTargets(const std::vector<engine::OutdatedTarget>& targets) {
    if (targets.empty()) {
        showText(QString());
        return;
    }
    QStringList names;
    bool schema = false;
    for (const engine::OutdatedTarget& t : targets) {
        names << QString::fromStdString(t.target);
        schema = schema || t.code == "SCHEMA_CHANGED";
    }
    const QString which = names.size() == 1 ? tr("%1 is").arg(names.front())
                                            : tr("%1 are").arg(names.join(QLatin1String(", ")));
    showText(
        schema
            ? tr("%1 out of date with the pipeline: a key, column, sequence or SCD type changed, so the "
                 "next update will refuse to run. A full refresh rebuilds from every delivered row.")
                  .arg(which)
            : tr("%1 out of date with the pipeline: its rows were computed by an earlier definition of "
                 "its flows, and rows already processed keep those values. A full refresh recomputes them.")
                  .arg(which));
    setToolTip(QString::fromStdString(targets.front().message));
}

} // namespace cdc::ui
