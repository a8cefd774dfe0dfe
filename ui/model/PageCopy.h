#pragma once
/// Copying a project file into a working copy a few pages at a time, so that the GUI can show how far the
/// copy got and stop it: File › Open used to copy every page before the window showed anything.

#include "core/common/Diagnostic.h"
#include "core/storage/Database.h"

#include <atomic>
#include <cstdint>

namespace cdc::ui {

/// Shared between the copying thread and the GUI thread: how far the copy got, and whether to stop.
struct CopyProgress {
    std::atomic<std::int64_t> donePages{0};
    std::atomic<std::int64_t> totalPages{0};
    std::atomic<bool> cancel{false};
};

/// CANCELLED, as copyWithProgress reports a copy that was stopped.
Diagnostic copyCancelled();

/// Copies every page of `from` into `to` (storage::IncrementalCopy), publishing progress in `progress`;
/// CANCELLED, with `to` left incomplete, once its cancel flag is set. Both connections are used only by the
/// thread that calls it until it returns.
Status copyWithProgress(storage::Database& from, storage::Database& to, CopyProgress& progress);

} // namespace cdc::ui
