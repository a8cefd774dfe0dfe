#pragma once
// Shared by the tests of parsed pipelines (tst_pipeline_script, tst_pipeline_edits, tst_pipeline_locations):
// data files, and pipelines compared without source positions, which move whenever the text around them
// changes.

#include "ConformanceFile.h"
#include "core/pipeline/PipelineLocations.h"
#include "core/sql/SqlApi.h"

#include <QFile>
#include <QString>
#include <QtGlobal>

#include <algorithm>
#include <string>
#include <string_view>

namespace pipelinetest {

/// A whole file; a test cannot go on without it.
inline std::string readFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll().toStdString();
}

/// A data file of tests/sql/edits/: its own, or the verbatim seed its `.ref` names (see ConformanceFile.h).
inline std::string dataFile(const char* name) {
    const QString path =
        cdc::test::conformanceFile(QStringLiteral(CDC_TESTS_DIR "/sql/edits"), QString::fromUtf8(name));
    if (path.isEmpty())
        qFatal("no data file %s", name);
    return readFile(path);
}

/// Pipelines equal field by field, warnings included (Diagnostic has no operator==).
inline bool equal(const cdc::pipeline::Pipeline& a, const cdc::pipeline::Pipeline& b) {
    auto sameWarning = [](const cdc::Diagnostic& x, const cdc::Diagnostic& y) {
        return x.severity == y.severity && x.code == y.code && x.message == y.message &&
               x.location == y.location;
    };
    return a.streamingTables == b.streamingTables && a.views == b.views && a.cdcFlows == b.cdcFlows &&
           a.appendFlows == b.appendFlows &&
           std::equal(a.warnings.begin(), a.warnings.end(), b.warnings.begin(), b.warnings.end(),
                      sameWarning);
}

/// The pipeline `text` parses to with every position cleared; `errors` gets the first error, if any.
inline cdc::pipeline::Pipeline positionless(std::string_view text, QString* errors = nullptr) {
    cdc::sql::PipelineParse parsed = cdc::sql::parsePipeline(text, "pipeline.sql");
    if (errors && parsed.firstError())
        *errors = QString::fromStdString(parsed.firstError()->format());
    cdc::pipeline::forEachLocation(parsed.pipeline,
                                   [](cdc::SourceLocation& l) { l = cdc::SourceLocation{}; });
    return parsed.pipeline;
}

} // namespace pipelinetest
