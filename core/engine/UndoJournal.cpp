#include "core/engine/UndoJournal.h"

#include <sqlite3.h>

#include <cstring>

namespace cdc::engine {

namespace {

// One value = a tag byte, then 8 bytes (integer, real) or a 4-byte length and the bytes (text, blob).
enum Tag : unsigned char { Null = 0, Integer = 1, Real = 2, Text = 3, Bytes = 4 };

template <class T> void put(std::string& out, T v) {
    char raw[sizeof(T)];
    std::memcpy(raw, &v, sizeof(T));
    out.append(raw, sizeof(T));
}

template <class T> bool take(std::string_view& in, T& v) {
    if (in.size() < sizeof(T))
        return false;
    std::memcpy(&v, in.data(), sizeof(T));
    in.remove_prefix(sizeof(T));
    return true;
}

} // namespace

void UndoJournal::append(const Value& v) {
    switch (v.index()) {
    case 0:
        m_bytes.push_back(static_cast<char>(Null));
        break;
    case 1:
        m_bytes.push_back(static_cast<char>(Integer));
        put(m_bytes, std::get<std::int64_t>(v));
        break;
    case 2:
        m_bytes.push_back(static_cast<char>(Real));
        put(m_bytes, std::get<double>(v));
        break;
    case 3: {
        const std::string& s = std::get<std::string>(v);
        m_bytes.push_back(static_cast<char>(Text));
        put(m_bytes, static_cast<std::uint32_t>(s.size()));
        m_bytes += s;
        break;
    }
    default: {
        const auto& b = std::get<Blob>(v).bytes;
        m_bytes.push_back(static_cast<char>(Bytes));
        put(m_bytes, static_cast<std::uint32_t>(b.size()));
        m_bytes.append(reinterpret_cast<const char*>(b.data()), b.size());
        break;
    }
    }
}

void UndoJournal::endRow() {
    ++m_rows;
    const std::size_t chunkStart = m_cuts.empty() ? 0 : m_cuts.back();
    if (m_bytes.size() - chunkStart >= m_chunkBytes)
        m_cuts.push_back(m_bytes.size());
}

void UndoJournal::save(const Row& row) {
    for (const Value& v : row)
        append(v);
    endRow();
}

Status UndoJournal::saveQuery(const storage::Database& db, const std::string& sql,
                              const std::vector<Value>& binds) {
    auto st = db.prepare(sql);
    if (!st)
        return st.error();
    for (std::size_t i = 0; i < binds.size(); ++i)
        st->bind(static_cast<int>(i + 1), binds[i]);
    const int n = st->columnCount();
    return st->forEachRow([&](const storage::Statement& row) {
        for (int c = 0; c < n; ++c)
            append(row.value(c));
        endRow();
    });
}

Status UndoJournal::flush(storage::Database& db, std::int64_t updateId, int phase) {
    if (m_rows == 0)
        return Status::success();
    auto st = db.prepare("INSERT INTO main." + storage::quoteIdentifier(m_journal) +
                         "(__u_upd, __u_phase, __u_chunk, __u_data) VALUES (?1, ?2, ?3, ?4)");
    if (!st)
        return st.error();
    if (m_cuts.empty() || m_cuts.back() != m_bytes.size())
        m_cuts.push_back(m_bytes.size());
    std::size_t from = 0;
    for (std::size_t chunk = 0; chunk < m_cuts.size(); ++chunk) {
        st->reset();
        st->bind(1, updateId)
            .bind(2, static_cast<std::int64_t>(phase))
            .bind(3, static_cast<std::int64_t>(chunk));
        // The buffer outlives the statement's step: SQLITE_STATIC avoids copying megabytes.
        sqlite3_bind_blob64(st->handle(), 4, m_bytes.data() + from, m_cuts[chunk] - from, SQLITE_STATIC);
        CDC_TRY(st->run());
        from = m_cuts[chunk];
    }
    m_bytes.clear();
    m_cuts.clear();
    m_rows = 0;
    return Status::success();
}

Result<std::vector<Row>> decodeUndoRows(std::string_view in, std::size_t columns) {
    std::vector<Row> rows;
    const auto corrupt = [] { return Diagnostic::error("UNDO_CORRUPT", "the rewind journal is damaged"); };
    while (!in.empty()) {
        Row row;
        row.reserve(columns);
        for (std::size_t c = 0; c < columns; ++c) {
            unsigned char tag = 0;
            if (!take(in, tag))
                return corrupt();
            switch (tag) {
            case Null:
                row.emplace_back();
                break;
            case Integer: {
                std::int64_t v = 0;
                if (!take(in, v))
                    return corrupt();
                row.emplace_back(v);
                break;
            }
            case Real: {
                double v = 0;
                if (!take(in, v))
                    return corrupt();
                row.emplace_back(v);
                break;
            }
            case Text:
            case Bytes: {
                std::uint32_t size = 0;
                if (!take(in, size) || in.size() < size)
                    return corrupt();
                if (tag == Text)
                    row.emplace_back(std::string(in.substr(0, size)));
                else
                    row.emplace_back(Blob{std::vector<unsigned char>(in.begin(), in.begin() + size)});
                in.remove_prefix(size);
                break;
            }
            default:
                return corrupt();
            }
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

std::string undoJournalSchema(const std::string& journalTable) {
    return "CREATE TABLE " + storage::quoteIdentifier(journalTable) +
           "(__u_upd INTEGER NOT NULL, __u_phase INTEGER NOT NULL, __u_chunk INTEGER NOT NULL, __u_data BLOB "
           "NOT NULL, "
           "PRIMARY KEY(__u_upd, __u_phase, __u_chunk));";
}

} // namespace cdc::engine
