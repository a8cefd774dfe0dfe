#pragma once
/// Engine tests that write their pipelines and sources as SQL: parse and run them through the SQL front end,
/// warning with the positioned error when one fails.

#include "core/sql/SqlApi.h"

#include <QtTest/QtTest>

namespace enginetest {

inline cdc::pipeline::Pipeline parse(const std::string& text) {
    auto p = cdc::sql::parsePipeline(text, "pipeline.sql");
    if (p.hasErrors())
        qWarning("parse: %s", p.firstError()->format().c_str());
    return p.pipeline;
}

inline bool source(cdc::storage::Database& db, const std::string& script) {
    auto st = cdc::sql::executeSourceScript(db, script, "source.sql");
    if (!st)
        qWarning("source: %s", st.error().format().c_str());
    return st.ok();
}

} // namespace enginetest
