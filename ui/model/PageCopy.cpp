#include "ui/model/PageCopy.h"

#include "core/storage/Backup.h"

namespace cdc::ui {

namespace {
/// Pages per step: 4 MB at SQLite's default page size, so that progress moves and a cancel lands within a
/// few milliseconds, while the per-step overhead stays negligible.
constexpr int kPagesPerStep = 1024;
} // namespace

Diagnostic copyCancelled() {
    return Diagnostic::error("CANCELLED", "opening cancelled; the project that was open stays open");
}

Status copyWithProgress(storage::Database& from, storage::Database& to, CopyProgress& progress) {
    auto copy = storage::IncrementalCopy::start(from, to);
    if (!copy)
        return copy.error();
    for (;;) {
        if (progress.cancel.load())
            return copyCancelled();
        auto done = copy->step(kPagesPerStep);
        if (!done)
            return done.error();
        if (done.value())
            break;
        progress.totalPages = copy->pageCount();
        progress.donePages = copy->pageCount() - copy->remaining();
    }
    progress.donePages = progress.totalPages.load();
    return {};
}

} // namespace cdc::ui
