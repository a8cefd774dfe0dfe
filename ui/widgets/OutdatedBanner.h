#pragma once
/// A warning strip above the target tables: which targets are out of date with the pipeline (their rows
/// were computed by an earlier definition of their flows) and a button that runs the full refresh
/// that brings them up to date.

#include "core/engine/Engine.h"
#include "ui/widgets/NoticeBanner.h"

#include <vector>

namespace cdc::ui {

class OutdatedBanner : public NoticeBanner {
    Q_OBJECT
public:
    /// `fullRefresh` is the action the button triggers.
    OutdatedBanner(QAction* fullRefresh, QWidget* parent = nullptr);

    /// Shows the banner for these targets; hides it when there are none.
    void setTargets(const std::vector<engine::OutdatedTarget>& targets);
};

} // namespace cdc::ui
