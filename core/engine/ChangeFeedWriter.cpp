#include "core/engine/ChangeFeedWriter.h"

#include "core/engine/SqlText.h"

#include <algorithm>

namespace cdc::engine {

namespace {
constexpr std::size_t kMaxBatchRows = 64;
constexpr std::size_t kMaxParameters = 32000; // SQLite's default limit is 32766
} // namespace

std::string changeFeedMetadataSql(const std::string& alias) {
    const std::string a = alias.empty() ? std::string() : alias + ".";
    // The timestamp is the update's `now`, formatted as store::isoTime(now, ' ', false) formats it.
    return "CASE " + a + "_change_type WHEN 0 THEN 'insert' WHEN 1 THEN 'update_preimage' WHEN 2 THEN "
           "'update_postimage' ELSE 'delete' END AS _change_type, " + a + "_commit_version AS _commit_version, "
           "(SELECT datetime(now, 'unixepoch') FROM __cdc_updates WHERE update_id = " + a +
           "_commit_version) AS _commit_timestamp";
}

ChangeFeedWriter::ChangeFeedWriter(UpdateContext& ctx, const TargetPlan& t)
    : m_ctx(ctx), m_table("main." + storage::quoteIdentifier(t.changeFeedRows)), m_width(t.publicColumns().size()),
      m_batchRows(std::clamp<std::size_t>(kMaxParameters / (t.publicColumns().size() + 3), 1, kMaxBatchRows)) {
    m_pending.reserve(m_batchRows);
}

Result<storage::Statement*> ChangeFeedWriter::statementFor(std::size_t rows) {
    std::optional<storage::Statement>& slot = rows == 1 ? m_single : m_batch;
    if (!slot) {
        const std::size_t columns = m_width + 3;
        std::string sql = "INSERT INTO " + m_table + " VALUES ";
        for (std::size_t r = 0; r < rows; ++r) {
            sql += r ? ", (" : "(";
            for (std::size_t c = 0; c < columns; ++c) {
                sql += c ? ", ?" : "?";
                sql += std::to_string(r * columns + c + 1);
            }
            sql += ')';
        }
        auto st = m_ctx.db.prepare(sql);
        if (!st)
            return st.error();
        slot.emplace(std::move(st.value()));
    }
    return &*slot;
}

Status ChangeFeedWriter::add(Row publicValues, ChangeType changeType) {
    m_pending.push_back({std::move(publicValues), changeType, m_ctx.feedPosition++});
    return m_pending.size() == m_batchRows ? flush() : Status::success();
}

Status ChangeFeedWriter::flush() {
    const std::size_t columns = m_width + 3;
    std::size_t done = 0;
    while (done < m_pending.size()) {
        const std::size_t rows = m_pending.size() - done >= m_batchRows ? m_batchRows : 1;
        auto st = statementFor(rows);
        if (!st)
            return st.error();
        storage::Statement& s = *st.value();
        s.reset();
        for (std::size_t r = 0; r < rows; ++r) {
            const Pending& p = m_pending[done + r];
            const int at = static_cast<int>(r * columns);
            for (std::size_t c = 0; c < m_width; ++c)
                s.bindStatic(at + static_cast<int>(c) + 1, p.values[c]);
            s.bind(at + static_cast<int>(m_width) + 1, static_cast<std::int64_t>(p.changeType));
            s.bind(at + static_cast<int>(m_width) + 2, m_ctx.updateId);
            s.bind(at + static_cast<int>(m_width) + 3, p.position);
        }
        CDC_TRY(s.run());
        done += rows;
    }
    m_pending.clear();
    return Status::success();
}

} // namespace cdc::engine
