#include "core/export/SparkCompatibility.h"

#include "core/common/Text.h"

namespace cdc::exporting {

namespace {

class Checker {
public:
    std::vector<Diagnostic> run(const pipeline::Pipeline& p) {
        for (const auto& f : p.cdcFlows)
            cdcFlow(f);
        for (const auto& f : p.appendFlows) {
            if (f.once)
                warn(f.location, "INSERT INTO ONCE (the flow '" + f.name.name +
                                     "'): Spark's append flows have no once option");
            query(f.query);
        }
        for (const auto& v : p.views)
            query(v.query);
        return std::move(m_out);
    }

private:
    void warn(const SourceLocation& at, std::string message) {
        m_out.push_back(Diagnostic::warning("SPARK_UNSUPPORTED", std::move(message), at));
    }

    void cdcFlow(const pipeline::AutoCdcFlow& f) {
        warn(f.location, "AUTO CDC (the flow '" + f.name.name +
                             "'): no released Apache Spark has it (its open-source port is unreleased); "
                             "spark-pipelines run refuses the flow");
        if (f.fromSnapshot)
            warn(f.location, "AUTO CDC FROM SNAPSHOT (the flow '" + f.name.name + "') is Databricks only");
        if (f.applyAsTruncate)
            warn(f.applyAsTruncate->location, "APPLY AS TRUNCATE WHEN is Databricks only");
        if (f.once)
            warn(f.location, "AUTO CDC ONCE (the flow '" + f.name.name + "') is Databricks only");
        if (f.scdType == pipeline::ScdType::Type2)
            warn(f.storedAsLocation.valid() ? f.storedAsLocation : f.location,
                 "STORED AS SCD TYPE 2 (the flow '" + f.name.name +
                     "'): the open-source port starts with type 1");
        if (f.trackHistory)
            warn(f.trackHistory->location, "TRACK HISTORY ON is Databricks only");
        relation(f.source);
        if (f.snapshotQuery)
            query(*f.snapshotQuery);
        if (f.versionQuery)
            query(*f.versionQuery);
    }

    void query(const pipeline::Query& q) {
        for (const auto& r : q.relations)
            relation(r);
    }

    void relation(const pipeline::RelationRef& r) {
        if (r.changeFeed)
            warn(r.location, "table_changes() reads a Delta change data feed: Databricks only");
        else if (r.call &&
                 (startsWithIgnoreCase(r.name, "read_files") || startsWithIgnoreCase(r.name, "list_files")))
            warn(r.location,
                 "read_files / list_files are Databricks SQL functions: in Spark read the files with "
                 "a DataFrame reader");
    }

    static bool startsWithIgnoreCase(const std::string& s, std::string_view prefix) {
        return s.size() >= prefix.size() &&
               equalsIgnoreCase(std::string_view(s).substr(0, prefix.size()), prefix);
    }

    std::vector<Diagnostic> m_out;
};

} // namespace

std::vector<Diagnostic> sparkUnsupported(const pipeline::Pipeline& pipeline) {
    return Checker().run(pipeline);
}

} // namespace cdc::exporting
