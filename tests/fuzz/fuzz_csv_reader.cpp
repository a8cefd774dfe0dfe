// The CSV reader on any bytes: csv::parse with both separators, the change feed importer's readers (every
// format, as `cdcstudio-cli import` reads a file, with its format detection and preview), and read_files over
// the bytes as a file of a volume (CSV with and without a header, tab-separated, and JSON lines), which turns
// records into rows. The file lives in a private temporary folder made once per process and removed at exit.
#include "FuzzInput.h"

#include "core/common/Csv.h"
#include "core/common/VolumeRoot.h"
#include "core/feeds/FeedImporter.h"
#include "core/feeds/FeedMapping.h"
#include "core/feeds/FeedReader.h"
#include "core/storage/FileTableFunctions.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <unistd.h>

using namespace cdc;
namespace fs = std::filesystem;

namespace {

const fs::path kVolume = "Volumes/main/fuzz/files";

/// The temporary folder, made on first use (mkdtemp) and removed when the process exits.
const fs::path& folder() {
    static const fs::path made = [] {
        std::string pattern = (fs::temp_directory_path() / "cdc-fuzz-csv-XXXXXX").string();
        if (!mkdtemp(pattern.data()))
            std::abort();
        fs::create_directories(fs::path(pattern) / kVolume);
        return fs::path(pattern);
    }();
    // Registered after `made` is constructed, so it runs before `made` is destroyed.
    static const bool removedAtExit = std::atexit([] {
                                          std::error_code ec;
                                          fs::remove_all(folder(), ec);
                                      }) == 0;
    (void)removedAtExit;
    return made;
}

void writeFile(const fs::path& path, std::string_view bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

TableFunctionCall readFiles(const std::string& path, const std::string& format, bool header,
                            const std::string& sep) {
    TableFunctionCall call;
    call.function = "read_files";
    call.arguments.push_back({"", Value{path}, true, "'" + path + "'", {}});
    call.arguments.push_back({"format", Value{format}, true, "'" + format + "'", {}});
    call.arguments.push_back(
        {"header", Value{std::int64_t{header ? 1 : 0}}, true, header ? "true" : "false", {}});
    if (!sep.empty())
        call.arguments.push_back({"sep", Value{sep}, true, "'" + sep + "'", {}});
    return call;
}

/// Every record of the bytes read as a feed of `format`, up to the first error, and turned into a row of
/// the table an import would create from the first records (types inferred, values cast).
void readFeed(std::string_view text, feeds::FeedFormat format) {
    std::istringstream head{std::string(text)};
    const feeds::FeedPreview preview = feeds::previewFeed(head, format, {}, 20);
    const feeds::FeedMapping mapping =
        feeds::FeedMapping::forNewTable(preview.records, format, "operation", "sequence");
    std::istringstream in{std::string(text)};
    auto reader = feeds::FeedReader::create(format, in);
    for (;;) {
        auto record = reader->next();
        if (!record || !*record)
            return;
        (void)mapping.row(**record, "feed");
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = fuzz::text(data, size);
    (void)csv::parse(text, ',');
    (void)csv::parse(text, '\t');

    (void)feeds::detectFormat(text);
    for (const feeds::FeedFormat format : feeds::allFormats())
        readFeed(text, format);

    const VolumeRoot volumes(folder());
    const std::string base = "/" + kVolume.string() + "/";
    writeFile(folder() / kVolume / "data.csv", text);
    (void)storage::readFileTableFunction(volumes, readFiles(base + "data.csv", "csv", true, ""));
    (void)storage::readFileTableFunction(volumes, readFiles(base + "data.csv", "csv", false, ""));
    (void)storage::readFileTableFunction(volumes, readFiles(base + "data.csv", "csv", true, "\t"));
    (void)storage::readFileTableFunction(volumes, readFiles(base + "data.csv", "json", false, ""));
    return 0;
}
