#include "ui/model/results/TargetSnapshot.h"

namespace cdc::ui {

SharedSnapshot emptySnapshot() {
    static const SharedSnapshot empty = std::make_shared<const TargetSnapshot>();
    return empty;
}

const TargetSnapshot* findSnapshot(const QList<TargetSnapshot>& snapshots, const QString& target) {
    for (const TargetSnapshot& s : snapshots)
        if (s.target.compare(target, Qt::CaseInsensitive) == 0)
            return &s;
    return nullptr;
}

} // namespace cdc::ui
