#pragma once
/// Rewind's memory of what an update overwrote. Every unit of work of an update ("phase") saves the
/// stored rows it is about to change or remove — their whole internal rows, bookkeeping included — and
/// writes them as ONE compact blob per phase into the target's journal (`__acu_<target>`).
///
/// Why a blob: an update of 60,000 keys used to copy 60,000 pre-images into an indexed undo table, one
/// B-tree insert each (about a third of the rows an SCD1 update wrote). Appending them to a byte buffer
/// and storing it once costs a few hundred sequential overflow pages, and rewind — rare, interactive —
/// decodes it back. Rows the update creates need no pre-image: they carry its id in __cdc_upd.

#include "core/common/Diagnostic.h"
#include "core/common/Value.h"
#include "core/storage/Database.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cdc::engine {

class UndoJournal {
public:
    explicit UndoJournal(std::string journalTable, std::size_t chunkBytes = kChunkBytes)
        : m_journal(std::move(journalTable)), m_chunkBytes(chunkBytes) {}

    /// Saves one pre-image (the table's internal columns in their declared order).
    void save(const Row& row);
    /// Saves every row a query returns, as the pre-image of a set-based change about to run.
    Status saveQuery(const storage::Database& db, const std::string& sql,
                     const std::vector<Value>& binds = {});

    std::int64_t rowCount() const { return m_rows; }

    /// Writes the saved rows as the journal entry of (update, phase) and clears them: one blob per
    /// `kChunkBytes` or so, cut between rows (SQLite caps a blob at 1 GB; a full refresh of a large target
    /// saves every row). Nothing is written when nothing was saved.
    Status flush(storage::Database& db, std::int64_t updateId, int phase);

    static constexpr std::size_t kChunkBytes = 32u << 20;

private:
    void append(const Value& v);
    void endRow();

    std::string m_journal;
    std::size_t m_chunkBytes;
    std::string m_bytes;
    std::vector<std::size_t> m_cuts; ///< offsets where a chunk ends (between rows)
    std::int64_t m_rows = 0;
};

/// The rows of one journal entry, each with `columns` values.
Result<std::vector<Row>> decodeUndoRows(std::string_view bytes, std::size_t columns);

/// `CREATE TABLE` of a target's journal.
std::string undoJournalSchema(const std::string& journalTable);

} // namespace cdc::engine
