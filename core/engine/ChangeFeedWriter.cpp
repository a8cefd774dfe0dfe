#include "core/engine/ChangeFeedWriter.h"

#include "core/engine/SqlText.h"

namespace cdc::engine {

std::string changeFeedMetadataSql() {
    // The timestamp is the update's `now` in the stored TIMESTAMP form (core/common/DataType.h): feed rows
    // are Spark data, read by queries like any table's.
    return "CASE _change_type WHEN 0 THEN 'insert' WHEN 1 THEN 'update_preimage' WHEN 2 THEN "
           "'update_postimage' "
           "ELSE 'delete' END AS _change_type, _commit_version, (SELECT datetime(now, 'unixepoch') FROM "
           "__cdc_updates WHERE update_id = _commit_version) AS _commit_timestamp";
}

ChangeFeedWriter::ChangeFeedWriter(UpdateContext& ctx, const TargetPlan& t)
    : m_ctx(ctx), m_width(t.publicColumns().size()),
      m_insert(ctx.db, "INSERT INTO main." + storage::quoteIdentifier(t.tables.changeFeedRows), m_width + 3) {
    m_pending.resize(m_insert.rowsPerStatement());
}

Status ChangeFeedWriter::add(std::span<const Value> publicValues, ChangeType changeType,
                             std::initializer_list<const Value*> extra) {
    Pending& p = m_pending[m_queued++];
    p.values.assign(publicValues.begin(), publicValues.end());
    for (const Value* v : extra)
        p.values.push_back(*v);
    p.changeType = changeType;
    p.position = m_ctx.feedPosition++;
    return m_queued == m_pending.size() ? flush() : Status::success();
}

Status ChangeFeedWriter::flush() {
    CDC_TRY(m_insert.write(m_queued, [&](storage::Statement& s, int at, std::size_t row) {
        const Pending& p = m_pending[row];
        for (std::size_t c = 0; c < m_width; ++c)
            s.bindStatic(at + static_cast<int>(c), p.values[c]);
        const int meta = at + static_cast<int>(m_width);
        s.bind(meta, static_cast<std::int64_t>(p.changeType))
            .bind(meta + 1, m_ctx.updateId)
            .bind(meta + 2, p.position);
    }));
    m_queued = 0;
    return Status::success();
}

} // namespace cdc::engine
