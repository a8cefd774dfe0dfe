#pragma once
/// Reading a feed into a source table: a preview of its first records, then the whole file in one
/// transaction — streamed, one prepared INSERT reused, with progress and cancel — so that a malformed
/// record anywhere leaves the table as it was.

#include "core/common/Diagnostic.h"
#include "core/feeds/FeedMapping.h"
#include "core/feeds/FeedReader.h"
#include "core/storage/Database.h"

#include <cstdint>
#include <functional>
#include <istream>
#include <string>
#include <vector>

namespace cdc::feeds {

/// The first records of a feed as the import would read them.
struct FeedPreview {
    std::vector<FeedRecord> records;
    std::vector<std::string> fields; ///< fieldNames(records)
    std::size_t tombstones = 0;
    std::size_t preimages = 0;
    /// The error at a malformed record among the first ones, if any (the records before it are kept).
    std::optional<Diagnostic> error;
};

/// Reads up to `limit` records of `in`.
FeedPreview previewFeed(std::istream& in, FeedFormat format, const ReaderOptions& options,
                        std::size_t limit = 100);

/// Where imported rows go: the source table itself (TableSink: the CLI), or the GUI's event queue.
class RowSink {
public:
    virtual ~RowSink() = default;
    virtual Status write(const Row& row) = 0;
};

/// One prepared INSERT into a source table, reused for every row.
class TableSink : public RowSink {
public:
    /// For the columns of `mapping`, in its order, of table `table` (its SQLite name).
    static Result<TableSink> open(storage::Database& db, const storage::TableInfo& table,
                                  const FeedMapping& mapping);
    Status write(const Row& row) override;

private:
    explicit TableSink(storage::Statement insert) : m_insert(std::move(insert)) {}
    storage::Statement m_insert;
};

struct ImportReport {
    FeedFormat format = FeedFormat::Csv; ///< the format read (importFile: detected when not given)
    std::string table;                   ///< the catalog name of the table written
    bool created = false;                ///< the import created it
    std::size_t imported = 0;            ///< rows written
    std::size_t tombstones = 0;          ///< Kafka tombstones skipped
    std::size_t preimages = 0;           ///< update preimages (and DMS control records) skipped
};

/// Called every few hundred records with the bytes read and rows written so far; false cancels.
using ImportProgress = std::function<bool(std::uint64_t bytesRead, std::size_t rows)>;

/// The table's catalog entry when it exists; else nothing.
Result<std::optional<storage::TableInfo>> findSourceTable(storage::Database& db, const std::string& table);

/// Creates source table `table` with the mapping's columns (its `CREATE TABLE` runs through the source
/// script executor, as if the user had written it).
Result<storage::TableInfo> createSourceTable(storage::Database& db, const std::string& table,
                                             const FeedMapping& mapping);

/// Imports every record of `reader` into `table` in one transaction: creates the table from the mapping when
/// it does not exist, then writes each record's row through `sink` (null: a TableSink into the table). Any
/// error — a malformed record, a value that does not cast, a cancel (CANCELLED) — rolls everything back.
Result<ImportReport> importFeed(storage::Database& db, FeedReader& reader, const std::string& table,
                                const FeedMapping& mapping, RowSink* sink = nullptr,
                                const ImportProgress& progress = {});

/// What importFile reads and where it writes: the CLI's `import` command in one value.
struct FileImport {
    std::string path;
    std::optional<FeedFormat> format; ///< empty: detected from the file's first 64 KiB
    std::string table;
    ReaderOptions reader; ///< its `file` is set from `path` when empty
    /// The names of the operation and sequence columns of a table the import creates.
    std::string operationColumn = "operation";
    std::string sequenceColumn = "sequence";
};

/// Imports a feed file with the default mapping (FeedMapping::forTable, or forNewTable with types inferred
/// from the first 1,000 records), reading the file twice: once for the sample, once for the import.
Result<ImportReport> importFile(storage::Database& db, const FileImport& request,
                                const ImportProgress& progress = {});

} // namespace cdc::feeds
