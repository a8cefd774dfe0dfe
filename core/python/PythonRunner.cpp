#include "core/python/PythonRunner.h"

#include "core/common/Text.h"
#include "core/pipeline/PipelineLocations.h"
#include "core/python/ChildProcess.h"
#include "core/python/LineIndex.h"
#include "core/storage/Catalog.h"

#include <nlohmann/json.hpp>

#include <csignal>
#include <cstring>

namespace cdc::python {

using nlohmann::json;

namespace {

std::string seconds(std::chrono::milliseconds d) {
    const auto ms = d.count();
    if (ms % 1000 == 0)
        return std::to_string(ms / 1000) + " s";
    return std::to_string(ms / 1000) + "." + std::to_string(ms % 1000 / 100) + " s";
}

/// The pipeline file's line in a stack the worker printed on stderr (faulthandler: most recent call
/// first), or its first line when there is none.
SourceLocation stackLine(const std::string& err, const std::string& file, const LineIndex& lines) {
    const std::string mark = "File \"" + file + "\", line ";
    if (const auto at = err.find(mark); at != std::string::npos)
        return lines.atLine(std::atoi(err.c_str() + at + mark.size()), 1);
    return lines.atLine(1, 1);
}

/// One request to a fresh worker; its reply when it answered `ok`, else the error at its .py position.
/// `printed` receives what the file wrote (its stdout goes to the worker's stderr).
Result<json> askWorker(const json& request, const std::string& file, const LineIndex& lines,
                       const RunOptions& options, std::string* printed = nullptr) {
    auto child = ChildProcess::start(options.workerProgram, {std::string(kWorkerFlag)}, request.dump());
    if (!child)
        return Diagnostic::error(child.error().code, child.error().message, lines.atLine(1, 1));
    // SIGUSR1 at the deadline makes the worker print where it is looping before it is killed.
    ChildOutcome outcome = child->finish(options.timeout, SIGUSR1);
    const SourceLocation where = stackLine(outcome.err, file, lines);
    if (printed)
        *printed = std::move(outcome.err);
    if (outcome.timedOut)
        return Diagnostic::error("PYTHON_TIMEOUT",
                                 "the pipeline file did not finish within " + seconds(options.timeout) +
                                     " (an endless loop?) and was stopped",
                                 where);
    if (outcome.signal != 0)
        return Diagnostic::error("PYTHON_CRASH",
                                 "the Python process running the pipeline file crashed (" +
                                     std::string(strsignal(outcome.signal)) + ")",
                                 where);
    json reply = json::parse(outcome.out, nullptr, false);
    if (reply.is_discarded() || !reply.is_object())
        return Diagnostic::error("PYTHON_CRASH",
                                 "the Python process running the pipeline file ended (exit status " +
                                     std::to_string(outcome.exitCode) + ") without an answer",
                                 where);
    if (!reply.value("ok", false))
        return Diagnostic::error(reply.value("code", std::string("PYTHON")),
                                 reply.value("message", std::string("the pipeline file failed")),
                                 lines.atLine(reply.value("line", 1), reply.value("column", 1)));
    return reply;
}

json request(const char* mode, std::string_view text, const std::string& file, const RunOptions& options) {
    return json{{"mode", mode},
                {"source", std::string(text)},
                {"file", file},
                {"volumesRoot", options.volumesRoot},
                {"tables", options.tables}};
}

json toJson(const Value& v) {
    if (const auto* i = std::get_if<std::int64_t>(&v))
        return *i;
    if (const auto* d = std::get_if<double>(&v))
        return *d;
    if (const auto* s = std::get_if<std::string>(&v))
        return *s;
    return nullptr; // NULL (blobs are never versions a Python function returned)
}

Value fromJson(const json& v) {
    if (v.is_number_integer())
        return v.get<std::int64_t>();
    if (v.is_number())
        return v.get<double>();
    if (v.is_string())
        return v.get<std::string>();
    return Value{};
}

/// A statement of the recorded SQL and the .py position it came from.
struct Piece {
    std::size_t begin = 0, end = 0;
    SourceLocation where;
};

} // namespace

TableColumns catalogColumns(const storage::Database& db) {
    TableColumns out;
    auto tables = storage::Catalog::list(db);
    if (!tables)
        return out;
    for (const auto& table : tables.value()) {
        auto& names = out[toLower(table.name)];
        for (const auto& column : table.columns)
            names.push_back(column.name);
    }
    return out;
}

PipelineRun runPipelineFile(std::string_view text, const std::string& file, const RunOptions& options) {
    PipelineRun run;
    const LineIndex lines(text, file);
    auto reply = askWorker(request("record", text, file, options), file, lines, options, &run.printed);
    if (!reply) {
        run.parse.diagnostics.push_back(reply.error());
        return run;
    }
    std::string parsedSql;
    std::vector<Piece> pieces;
    std::vector<std::pair<std::string, std::string>> functions; // flow, function
    for (const json& st : reply.value()["statements"]) {
        const std::string statement = st.value("sql", std::string());
        pieces.push_back({parsedSql.size(), parsedSql.size() + statement.size(),
                          lines.atLine(st.value("line", 1), st.value("column", 1))});
        parsedSql += statement + ";\n";
        if (st.contains("snapshotFunction")) {
            const std::string fn = st["snapshotFunction"].get<std::string>();
            functions.emplace_back(st.value("flow", std::string()), fn);
            run.sql += "-- snapshots from the Python function " + fn +
                       " (the query below is its first one; only a run of the .py file calls it)\n";
        }
        run.sql += statement + ";\n";
    }
    run.parse = sql::parsePipeline(parsedSql, file);
    // Every position becomes the .py position of the declaration it is in.
    const auto remap = [&](SourceLocation& l) {
        if (!l.valid())
            return;
        for (const Piece& p : pieces)
            if (l.offset >= p.begin && l.offset <= p.end + 1) {
                l = p.where;
                return;
            }
        l = pieces.empty() ? lines.atLine(1, 1) : pieces.back().where;
    };
    for (auto& d : run.parse.diagnostics)
        remap(d.location);
    pipeline::forEachLocation(run.parse.pipeline, remap);
    for (auto& flow : run.parse.pipeline.cdcFlows)
        for (const auto& [name, fn] : functions)
            if (equalsIgnoreCase(flow.name.name, name))
                flow.snapshotFunction = fn;
    return run;
}

Result<std::optional<OfferedSnapshot>> callSnapshotFunction(std::string_view text, const std::string& file,
                                                            const std::string& flow,
                                                            const std::optional<Value>& lastVersion,
                                                            const RunOptions& options) {
    const LineIndex lines(text, file);
    json req = request("snapshot", text, file, options);
    req["flow"] = flow;
    req["lastVersion"] = lastVersion ? toJson(*lastVersion) : json(nullptr);
    auto reply = askWorker(req, file, lines, options);
    if (!reply)
        return reply.error();
    const json& offer = reply.value()["offer"];
    if (offer.is_null())
        return std::optional<OfferedSnapshot>{};
    return std::optional<OfferedSnapshot>(
        OfferedSnapshot{offer.value("sql", std::string()), fromJson(offer["version"]),
                        lines.atLine(offer.value("line", 1), offer.value("column", 1))});
}

void SnapshotFunctions::add(std::string text, std::string file, const pipeline::Pipeline& declared) {
    File f{std::move(text), std::move(file), {}};
    for (const auto& flow : declared.cdcFlows)
        if (!flow.snapshotFunction.empty())
            f.flows.push_back(flow.name.name);
    if (!f.flows.empty())
        m_files.push_back(std::move(f));
}

engine::SnapshotFunctionCall SnapshotFunctions::callback() const {
    return [this](const std::string& flow,
                  const std::optional<Value>& last) -> Result<std::optional<engine::SnapshotOffer>> {
        for (const File& f : m_files)
            for (const auto& name : f.flows) {
                if (!equalsIgnoreCase(name, flow))
                    continue;
                auto offer = callSnapshotFunction(f.text, f.file, name, last, m_options);
                if (!offer)
                    return offer.error();
                if (!offer.value())
                    return std::optional<engine::SnapshotOffer>{};
                // The DataFrame's query read as a view's, every position at the line that made it.
                const OfferedSnapshot& o = *offer.value();
                auto parsed = sql::parsePipeline("CREATE TEMPORARY VIEW __cdc_snapshot AS " + o.sql, f.file);
                if (auto err = parsed.firstError())
                    return Diagnostic::error(
                        err->code, "the snapshot of version " + displayText(o.version) + ": " + err->message,
                        o.location);
                pipeline::Query query = parsed.pipeline.views.at(0).query;
                query.location = o.location;
                for (auto& r : query.relations)
                    r.location = o.location;
                return std::optional<engine::SnapshotOffer>(
                    engine::SnapshotOffer{std::move(query), o.version});
            }
        return Diagnostic::error("SNAPSHOT_FUNCTION_NOT_RUN",
                                 "no Python file of this update declares the snapshot flow '" + flow + "'");
    };
}

} // namespace cdc::python
