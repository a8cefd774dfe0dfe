#pragma once
/// Streaming readers of change feeds: one record at a time from an input stream, in bounded memory, each
/// mapped onto a FeedRecord (operation, sequence, values) the way its format documents it. A malformed
/// record is an error naming its line and byte offset; records a flow must not see (Kafka tombstones,
/// update preimages, -U rows) are skipped and counted.

#include "core/common/Diagnostic.h"
#include "core/feeds/FeedFormat.h"
#include "core/feeds/FeedRecord.h"

#include <cstdint>
#include <istream>
#include <memory>
#include <optional>
#include <string>

namespace cdc::feeds {

struct ReaderOptions {
    /// The file name errors carry.
    std::string file = "<feed>";
    /// Where the sequence comes from: a field name, or a dotted path into a JSON record (`source.ts_ms`).
    /// Empty: the format's default (Debezium source.lsn else source.ts_ms else ts_ms; DMS AR_H_CHANGE_SEQ
    /// else a `timestamp` column; Delta _commit_version; otherwise the record's ordinal).
    std::string sequenceField;
    /// CSV only: the field separator.
    char separator = ',';
};

class FeedReader {
public:
    /// A reader of `format` over `in`, which must outlive it.
    static std::unique_ptr<FeedReader> create(FeedFormat format, std::istream& in,
                                              ReaderOptions options = {});
    virtual ~FeedReader();
    FeedReader(const FeedReader&) = delete;
    FeedReader& operator=(const FeedReader&) = delete;

    /// The next record; nothing at the end of the input; a positioned FEED_RECORD error for a malformed
    /// record (after which the reader stays failed).
    Result<std::optional<FeedRecord>> next();

    /// Kafka tombstones (Debezium: a `null` value, an empty line) skipped so far.
    std::size_t tombstones() const { return m_tombstones; }
    /// Preimages (Delta update_preimage, Flink -U) and DMS control records skipped so far: a flow
    /// wants the row after the change.
    std::size_t preimages() const { return m_preimages; }
    /// Bytes read so far, for progress.
    std::uint64_t bytesRead() const;
    const ReaderOptions& options() const { return m_options; }
    FeedFormat format() const { return m_format; }

    class Source;

protected:
    FeedReader(FeedFormat format, std::istream& in, ReaderOptions options);

    /// What a format makes of one raw record (a JSON value, or a CSV row turned into a JSON object of
    /// strings and nulls): a record, or a skip (Blank: an empty line of a JSON file, not counted).
    enum class Skip { None, Tombstone, Preimage, Blank };
    struct Raw;
    virtual Result<Skip> interpret(Raw& raw, FeedRecord& record) = 0;
    /// A format that reads a CSV row's columns as they are (Raw::columns) instead of a JSON object: no
    /// JSON value per row, which was a third of a large plain CSV import.
    virtual bool readsColumns() const { return false; }

    /// A positioned error about the raw record.
    Diagnostic error(const Raw& raw, const std::string& message) const;
    /// The record's ordinal among the records read (tombstones and skips included), 1-based.
    std::int64_t ordinal() const { return m_ordinal; }

    std::size_t m_tombstones = 0;
    std::size_t m_preimages = 0;

private:
    FeedFormat m_format;
    ReaderOptions m_options;
    std::unique_ptr<Source> m_source;
    std::int64_t m_ordinal = 0;
    bool m_failed = false;
};

} // namespace cdc::feeds
