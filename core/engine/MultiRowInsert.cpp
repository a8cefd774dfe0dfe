#include "core/engine/MultiRowInsert.h"

#include <algorithm>

namespace cdc::engine {

namespace {
constexpr std::size_t kMaxParameters = 32000; // SQLite's default limit is 32766
} // namespace

MultiRowInsert::MultiRowInsert(const storage::Database& db, std::string head, std::size_t width,
                               std::string tail, std::size_t maxRowsPerStatement)
    : m_db(db), m_head(std::move(head)), m_tail(std::move(tail)), m_width(width),
      m_batchRows(std::clamp<std::size_t>(kMaxParameters / std::max<std::size_t>(width, 1), 1,
                                          maxRowsPerStatement)) {}

Result<storage::Statement*> MultiRowInsert::statementFor(std::size_t rows) {
    std::optional<storage::Statement>& slot = rows == 1 ? m_single : m_batch;
    if (!slot) {
        std::string sql = m_head + " VALUES ";
        for (std::size_t r = 0; r < rows; ++r) {
            sql += r ? ", (" : "(";
            for (std::size_t c = 0; c < m_width; ++c) {
                sql += c ? ", ?" : "?";
                sql += std::to_string(r * m_width + c + 1);
            }
            sql += ')';
        }
        if (!m_tail.empty())
            sql += " " + m_tail;
        auto st = m_db.prepare(sql);
        if (!st)
            return st.error();
        slot.emplace(std::move(st.value()));
    }
    return &*slot;
}

Status MultiRowInsert::write(std::size_t rows, const BindRow& bind) {
    std::size_t done = 0;
    while (done < rows) {
        const std::size_t count = rows - done >= m_batchRows ? m_batchRows : 1;
        auto st = statementFor(count);
        if (!st)
            return st.error();
        storage::Statement& s = *st.value();
        s.reset();
        for (std::size_t r = 0; r < count; ++r)
            bind(s, static_cast<int>(r * m_width) + 1, done + r);
        CDC_TRY(s.run());
        done += count;
    }
    return Status::success();
}

} // namespace cdc::engine
