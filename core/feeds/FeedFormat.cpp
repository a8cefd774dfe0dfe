// Detection looks at the first records only: enough to tell the formats apart, and a wrong guess is cheap
// since the user (the GUI's format box, the CLI's --format) has the last word.
#include "core/feeds/FeedFormat.h"

#include "core/common/Csv.h"
#include "core/common/Text.h"

#include <nlohmann/json.hpp>

#include <sstream>

namespace cdc::feeds {

namespace {

struct FormatNames {
    FeedFormat format;
    const char* name;
    const char* title;
};

constexpr FormatNames kNames[] = {
    {FeedFormat::Debezium, "debezium", "Debezium JSON"},
    {FeedFormat::Dms, "dms", "AWS DMS (CSV or JSON)"},
    {FeedFormat::DeltaCdf, "cdf", "Delta change data feed"},
    {FeedFormat::Flink, "flink", "Flink changelog CSV"},
    {FeedFormat::Csv, "csv", "Plain CSV"},
    {FeedFormat::JsonLines, "jsonl", "JSON Lines"},
};

bool hasMember(const nlohmann::json& object, std::string_view name) {
    for (auto it = object.begin(); it != object.end(); ++it)
        if (equalsIgnoreCase(it.key(), name))
            return true;
    return false;
}

std::optional<FeedFormat> fromJson(const nlohmann::json& value) {
    if (!value.is_object())
        return std::nullopt;
    const nlohmann::json* event = &value;
    if (value.contains("payload") && value.contains("schema") && value["payload"].is_object())
        event = &value["payload"];
    if (event->contains("op") &&
        (event->contains("before") || event->contains("after") || event->contains("source")))
        return FeedFormat::Debezium;
    if (hasMember(value, "_change_type"))
        return FeedFormat::DeltaCdf;
    if (value.contains("Op") || (value.contains("data") && value.contains("metadata")))
        return FeedFormat::Dms;
    return FeedFormat::JsonLines;
}

FeedFormat fromCsv(std::string_view head) {
    std::istringstream in{std::string(head)};
    csv::Reader reader(in);
    const auto header = reader.next();
    if (!header)
        return FeedFormat::Csv;
    for (const auto& name : header->fields)
        if (equalsIgnoreCase(name, "_change_type"))
            return FeedFormat::DeltaCdf;
    // The first few data rows decide between DMS's Op letters and Flink's row kinds.
    for (int i = 0; i < 8; ++i) {
        const auto row = reader.next();
        if (!row)
            break;
        for (std::size_t c = 0; c < row->fields.size() && c < header->fields.size(); ++c) {
            const std::string& v = row->fields[c];
            if (v == "+I" || v == "-U" || v == "+U" || v == "-D")
                return FeedFormat::Flink;
            if (equalsIgnoreCase(header->fields[c], "Op") && (v == "I" || v == "U" || v == "D"))
                return FeedFormat::Dms;
        }
    }
    return FeedFormat::Csv;
}

} // namespace

std::string formatName(FeedFormat format) {
    for (const auto& n : kNames)
        if (n.format == format)
            return n.name;
    return {};
}

std::string formatTitle(FeedFormat format) {
    for (const auto& n : kNames)
        if (n.format == format)
            return n.title;
    return {};
}

std::optional<FeedFormat> parseFormat(std::string_view name) {
    for (const auto& n : kNames)
        if (equalsIgnoreCase(name, n.name))
            return n.format;
    if (equalsIgnoreCase(name, "delta") || equalsIgnoreCase(name, "json"))
        return equalsIgnoreCase(name, "delta") ? FeedFormat::DeltaCdf : FeedFormat::JsonLines;
    return std::nullopt;
}

const std::vector<FeedFormat>& allFormats() {
    static const std::vector<FeedFormat> all = [] {
        std::vector<FeedFormat> v;
        for (const auto& n : kNames)
            v.push_back(n.format);
        return v;
    }();
    return all;
}

bool hasOperation(FeedFormat format) {
    return format != FeedFormat::Csv && format != FeedFormat::JsonLines;
}

FeedFormat detectFormat(std::string_view head) {
    std::size_t at = 0;
    while (at < head.size()) {
        const std::size_t end = std::min(head.find('\n', at), head.size());
        std::string_view line = head.substr(at, end - at);
        at = end + 1;
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
            line.remove_suffix(1);
        while (!line.empty() && (line.front() == ' ' || line.front() == '\t'))
            line.remove_prefix(1);
        if (line.empty() || line == "null") // blank lines and Kafka tombstones say nothing yet
            continue;
        if (line.front() != '{')
            return fromCsv(head);
        const auto value = nlohmann::json::parse(line, nullptr, false);
        if (value.is_discarded())
            return FeedFormat::JsonLines; // a line cut short by the head's end, or not JSON at all
        return fromJson(value).value_or(FeedFormat::JsonLines);
    }
    return FeedFormat::Csv;
}

} // namespace cdc::feeds
