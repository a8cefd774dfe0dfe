#include "core/engine/BatchEvents.h"

#include "core/engine/Appliers.h"
#include "core/engine/SqlText.h"
#include "core/engine/ValueOrder.h"

#include <string_view>

namespace cdc::engine {

using namespace sqltext;

Status readBatchEvents(UpdateContext& ctx, const TargetPlan& t, const FlowPlan& f, const Value& floor, bool& partial,
                       const std::function<void(BatchEvent&&)>& onEvent) {
    const std::size_t n = t.columns.size();
    const auto supply = supplySql(t, f, "ctu");
    partial = !supply.empty();
    std::string sql = "SELECT rid, op, s, sv, ctu, " + join(n, [](std::size_t i) { return col(i); });
    if (partial)
        sql += ", " + join(n, [&](std::size_t i) { return supply[i]; });
    sql += " FROM " + ctx.batch + " WHERE op <> 2 AND (?1 IS NULL OR s >= ?1)";
    auto st = ctx.db.prepare(sql);
    if (!st)
        return st.error();
    st->bind(1, floor);
    const int dataAt = 5, supplyAt = dataAt + static_cast<int>(n);
    return st->forEachRow([&](const storage::Statement& r) {
        BatchEvent e;
        e.rid = r.int64(0);
        e.op = static_cast<int>(r.int64(1));
        e.s = r.value(2);
        e.shown = r.value(3);
        e.ctu = r.value(4);
        e.values.reserve(n);
        for (std::size_t i = 0; i < n; ++i)
            e.values.push_back(r.value(dataAt + static_cast<int>(i)));
        if (partial) {
            e.supplied.resize(n);
            for (std::size_t i = 0; i < n; ++i)
                e.supplied[i] = r.int64(supplyAt + static_cast<int>(i)) != 0;
        }
        onEvent(std::move(e));
    });
}

Row keyOf(const TargetPlan& t, const Row& values) {
    Row key;
    key.reserve(t.keyIndex.size());
    for (int k : t.keyIndex)
        key.push_back(values[static_cast<std::size_t>(k)]);
    return key;
}

std::size_t KeyHash::operator()(const Row& key) const {
    std::size_t h = 0;
    for (const Value& v : key) {
        std::size_t x = 0;
        switch (v.index()) {
        case 1: x = std::hash<std::int64_t>{}(std::get<std::int64_t>(v)); break;
        case 2: {
            const double d = std::get<double>(v);
            const auto i = static_cast<std::int64_t>(d);
            x = static_cast<double>(i) == d ? std::hash<std::int64_t>{}(i) : std::hash<double>{}(d);
            break;
        }
        case 3: x = std::hash<std::string>{}(std::get<std::string>(v)); break;
        case 4: {
            const auto& b = std::get<Blob>(v).bytes;
            x = std::hash<std::string_view>{}(std::string_view(reinterpret_cast<const char*>(b.data()), b.size()));
            break;
        }
        default: break;
        }
        h = h * 1000003u ^ x;
    }
    return h;
}

bool KeyEqual::operator()(const Row& a, const Row& b) const {
    for (std::size_t i = 0; i < a.size(); ++i)
        if (compareValues(a[i], b[i]) != 0)
            return false;
    return true;
}

bool keyLess(const Row& a, const Row& b) {
    for (std::size_t i = 0; i < a.size(); ++i)
        if (int c = compareValues(a[i], b[i]))
            return c < 0;
    return false;
}

} // namespace cdc::engine
