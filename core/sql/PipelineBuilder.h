#pragma once
/// Turns parsed pipeline statements into the pipeline::Pipeline model: expressions and queries carry
/// their canonical Spark text and their SQLite translation; a FLOW AUTO CDC clause becomes an
/// AutoCdcFlow named after its table, `AS query` an AppendFlow named after its table.

#include "core/common/Diagnostic.h"
#include "core/pipeline/Pipeline.h"
#include "core/sql/Ast.h"

#include <string>
#include <vector>

namespace cdc::sql {

class PipelineBuilder {
public:
    /// Adds one statement; problems (non-pipeline statements, untranslatable expressions) go to diagnostics.
    void add(const Statement& st, std::vector<Diagnostic>& diagnostics);
    const pipeline::Pipeline& pipeline() const { return m_pipeline; }
    pipeline::Pipeline take() { return std::move(m_pipeline); }

private:
    pipeline::Expression expression(const Expr& e);
    pipeline::Query query(const Query& q);
    pipeline::AutoCdcFlow autoCdc(const AutoCdcSpec& spec, pipeline::Identifier name,
                                  pipeline::Identifier target, const Span& where);
    pipeline::ColumnSelection selection(const ColumnSel& sel) const;
    static pipeline::Identifier identifier(const Name& n);
    static pipeline::Identifier identifier(const Ident& i);
    void error(const std::string& message, const SourceLocation& where);
    void warnExpectations(const std::vector<Expectation>& expectations);

    pipeline::Pipeline m_pipeline;
    std::vector<Diagnostic>* m_diagnostics = nullptr;
};

/// A dataset name without the legacy `LIVE.` prefix.
std::string withoutLivePrefix(const std::string& name);

} // namespace cdc::sql
