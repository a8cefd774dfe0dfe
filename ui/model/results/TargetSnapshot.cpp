// The small shared pieces of TargetSnapshot; the loading is in TargetSnapshotLoader.cpp. Serials
// are atomic so a snapshot loaded on any thread gets a number no other snapshot has.
#include "ui/model/results/TargetSnapshot.h"

#include <atomic>

namespace cdc::ui {

quint64 nextSnapshotSerial() {
    static std::atomic<quint64> serial{0};
    return ++serial;
}

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
