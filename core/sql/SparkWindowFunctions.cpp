// Spark's IGNORE NULLS for window functions, which SQLite's first_value / last_value / nth_value / lag /
// lead lack. Two aggregate window functions over the frame SQLite hands them: the n-th value that is not
// NULL counted from the frame's start (`spark_nth_nonnull_first`) or from its end
// (`spark_nth_nonnull_last`), NULL when there are fewer. The translator expresses every IGNORE NULLS form
// with them: first_value / nth_value count from the start, last_value from the end, lag reads the frame of
// the rows before the current one from its end, lead the rows after it from its start.
#include "core/sql/SqlApi.h"

#include <sqlite3.h>

#include <deque>

namespace cdc::sql {

namespace {

/// The frame's values in order, NULLs included so that the inverse step removes the right one.
struct FrameValues {
    std::deque<sqlite3_value*> values; // nullptr for NULL
    std::int64_t nth = 1;
    ~FrameValues() {
        for (auto* v : values)
            sqlite3_value_free(v);
    }
};

FrameValues* frameOf(sqlite3_context* ctx, bool create) {
    auto** slot =
        static_cast<FrameValues**>(sqlite3_aggregate_context(ctx, create ? sizeof(FrameValues*) : 0));
    if (!slot)
        return nullptr;
    if (!*slot && create)
        *slot = new FrameValues;
    return *slot;
}

void step(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
    FrameValues* frame = frameOf(ctx, true);
    if (!frame) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    if (argc > 1)
        frame->nth = sqlite3_value_int64(argv[1]);
    sqlite3_value* copy = nullptr;
    if (sqlite3_value_type(argv[0]) != SQLITE_NULL) {
        copy = sqlite3_value_dup(argv[0]);
        if (!copy) {
            sqlite3_result_error_nomem(ctx);
            return;
        }
    }
    frame->values.push_back(copy);
}

void inverse(sqlite3_context* ctx, int, sqlite3_value**) {
    FrameValues* frame = frameOf(ctx, false);
    if (!frame || frame->values.empty())
        return;
    sqlite3_value_free(frame->values.front());
    frame->values.pop_front();
}

template <bool FromEnd> void value(sqlite3_context* ctx) {
    FrameValues* frame = frameOf(ctx, false);
    if (!frame || frame->nth < 1) {
        sqlite3_result_null(ctx);
        return;
    }
    std::int64_t left = frame->nth;
    auto pick = [&](sqlite3_value* v) {
        if (v && --left == 0) {
            sqlite3_result_value(ctx, v);
            return true;
        }
        return false;
    };
    if constexpr (FromEnd) {
        for (auto it = frame->values.rbegin(); it != frame->values.rend(); ++it)
            if (pick(*it))
                return;
    } else {
        for (auto* v : frame->values)
            if (pick(v))
                return;
    }
    sqlite3_result_null(ctx);
}

template <bool FromEnd> void finish(sqlite3_context* ctx) {
    value<FromEnd>(ctx);
    auto** slot = static_cast<FrameValues**>(sqlite3_aggregate_context(ctx, 0));
    if (slot) {
        delete *slot;
        *slot = nullptr;
    }
}

template <bool FromEnd> void define(sqlite3* db, const char* name) {
    const int flags = SQLITE_UTF8 | SQLITE_INNOCUOUS | SQLITE_DETERMINISTIC;
    for (int argc : {1, 2})
        sqlite3_create_window_function(db, name, argc, flags, nullptr, step, finish<FromEnd>, value<FromEnd>,
                                       inverse, nullptr);
}

} // namespace

void registerSparkWindowFunctions(sqlite3* db) {
    define<false>(db, "spark_nth_nonnull_first");
    define<true>(db, "spark_nth_nonnull_last");
}

} // namespace cdc::sql
