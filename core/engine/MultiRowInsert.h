#pragma once
/// One INSERT for many rows: `head` + `VALUES (?, ...), (?, ...), ...` + `tail`, prepared once per row
/// count used. Run once per row, a prepared statement costs more in statement overhead (reset, binds, a
/// seek from the root, halting the VDBE) than in B-tree work; the engine writes its change-feed rows and
/// SCD1 target rows this way.

#include "core/common/Diagnostic.h"
#include "core/storage/Database.h"

#include <functional>
#include <optional>
#include <string>

namespace cdc::engine {

class MultiRowInsert {
public:
    /// `head`: `INSERT INTO t(...)` (without VALUES); `tail`: e.g. an `ON CONFLICT ... DO UPDATE` clause.
    MultiRowInsert(const storage::Database& db, std::string head, std::size_t width, std::string tail = {},
                   std::size_t maxRowsPerStatement = 64);

    /// Binds one row's `width` values, the first at parameter `firstParameter`.
    using BindRow = std::function<void(storage::Statement& st, int firstParameter, std::size_t row)>;

    /// Inserts rows 0..rows-1: full statements of rowsPerStatement() rows, then the remainder one by one.
    Status write(std::size_t rows, const BindRow& bind);

    std::size_t rowsPerStatement() const { return m_batchRows; }

private:
    Result<storage::Statement*> statementFor(std::size_t rows);

    const storage::Database& m_db;
    std::string m_head, m_tail;
    std::size_t m_width;
    std::size_t m_batchRows;
    std::optional<storage::Statement> m_batch, m_single;
};

} // namespace cdc::engine
