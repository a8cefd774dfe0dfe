#include "core/sql/PipelineScript.h"

#include "core/common/Text.h"
#include "core/sql/Lexer.h"
#include "core/sql/Parser.h"
#include "core/sql/PipelineBuilder.h"
#include "core/sql/Printer.h"

#include <algorithm>

namespace cdc::sql {

namespace {

bool isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\r';
}

/// Past the rest of the line at `pos` when it holds only white space (its newline included), else `pos`.
std::size_t pastEmptyRestOfLine(std::string_view text, std::size_t pos) {
    std::size_t p = pos;
    while (p < text.size() && isBlank(text[p]))
        ++p;
    if (p == text.size())
        return p;
    return text[p] == '\n' ? p + 1 : pos;
}

/// A byte range to splice and what goes in its place.
struct Splice {
    std::size_t begin;
    std::size_t end;
    std::string with;
};

/// Removing [begin, end) takes the rest of its line and the blank line after it. At the end of the text
/// it also takes the white space before it, so no blank lines trail what is left.
Splice removal(std::string_view text, std::size_t begin, std::size_t end) {
    std::size_t stop = pastEmptyRestOfLine(text, end);
    if (stop > end)
        stop = pastEmptyRestOfLine(text, stop);
    bool atEnd = std::all_of(text.begin() + static_cast<std::ptrdiff_t>(stop), text.end(),
                             [](char c) { return isBlank(c) || c == '\n'; });
    if (!atEnd)
        return {begin, stop, ""};
    std::size_t start = begin;
    while (start > 0 && (isBlank(text[start - 1]) || text[start - 1] == '\n'))
        --start;
    return {start, text.size(), start > 0 ? "\n" : ""};
}

std::string printed(const Statement& statement) {
    return Printer::statement(statement) + ";";
}

} // namespace

std::optional<std::string> definedDataset(const Statement& statement) {
    if (auto* s = std::get_if<StreamingTableStmt>(&statement.body))
        return withoutLivePrefix(s->name.joined());
    if (auto* v = std::get_if<ViewStmt>(&statement.body))
        return withoutLivePrefix(v->name.joined());
    return std::nullopt;
}

std::optional<std::string> definedFlow(const Statement& statement) {
    if (auto* f = std::get_if<CreateFlowStmt>(&statement.body))
        return f->name.name;
    // The builder names the flow of a streaming table's own clause, and a legacy APPLY CHANGES, after
    // the table it writes.
    if (auto* s = std::get_if<StreamingTableStmt>(&statement.body); s && (s->autoCdc || s->query))
        return withoutLivePrefix(s->name.joined());
    if (auto* a = std::get_if<ApplyChangesStmt>(&statement.body); a && a->spec.target)
        return withoutLivePrefix(a->spec.target->joined());
    return std::nullopt;
}

AutoCdcSpec* autoCdcSpecOf(Statement& statement) {
    if (auto* f = std::get_if<CreateFlowStmt>(&statement.body); f && f->autoCdc)
        return &*f->autoCdc;
    if (auto* s = std::get_if<StreamingTableStmt>(&statement.body); s && s->autoCdc)
        return &*s->autoCdc;
    if (auto* a = std::get_if<ApplyChangesStmt>(&statement.body))
        return &a->spec;
    return nullptr;
}

const AutoCdcSpec* autoCdcSpecOf(const Statement& statement) {
    return autoCdcSpecOf(const_cast<Statement&>(statement));
}

Result<PipelineScript> PipelineScript::parse(std::string text, const std::string& file) {
    ParsedScript parsed = Parser(text, file).parseScript();
    if (!parsed.diagnostics.empty())
        return parsed.diagnostics.front();
    // Spans end at a statement's last token; its `;` is the next token, perhaps after a comment.
    const std::vector<Token> tokens = Lexer(text).tokenize();
    PipelineScript script;
    auto next = tokens.begin();
    for (auto& st : parsed.statements) {
        ScriptStatement s;
        s.begin = st.span.location.offset;
        s.end = s.begin + st.span.location.length;
        next = std::find_if(next, tokens.end(), [&](const Token& t) { return t.offset >= s.end; });
        if (next != tokens.end() && next->isSymbol(";"))
            s.end = next->offset + next->length;
        s.statement = std::move(st);
        script.m_statements.push_back(std::move(s));
    }
    script.m_text = std::move(text);
    return script;
}

std::optional<std::size_t> PipelineScript::findDataset(std::string_view name) const {
    return findDefining(name, definedDataset);
}

std::optional<std::size_t> PipelineScript::findFlow(std::string_view name) const {
    return findDefining(name, definedFlow);
}

std::optional<std::size_t> PipelineScript::findDefining(std::string_view name, Defines defines) const {
    for (std::size_t i = 0; i < m_statements.size(); ++i)
        if (auto defined = defines(m_statements[i].statement); defined && equalsIgnoreCase(*defined, name))
            return i;
    return std::nullopt;
}

std::string PipelineScript::replaced(std::size_t index, const Statement& statement) const {
    return rewritten({{index, statement}});
}

std::string PipelineScript::appended(const Statement& statement) const {
    return rewritten({}, {statement});
}

std::string PipelineScript::removed(std::size_t index) const {
    return rewritten({{index, std::nullopt}});
}

std::string PipelineScript::rewritten(std::vector<StatementChange> changes,
                                      const std::vector<Statement>& additions) const {
    // From the last statement back, so the offsets of those before stay valid in the growing result.
    std::sort(changes.begin(), changes.end(),
              [](const StatementChange& a, const StatementChange& b) { return a.index > b.index; });
    std::string out = m_text;
    for (const auto& change : changes) {
        const ScriptStatement& s = m_statements.at(change.index);
        // An AST equal to the old one (positions never count) keeps the statement as typed, comments and all.
        if (change.replacement && *change.replacement == s.statement)
            continue;
        Splice splice = change.replacement ? Splice{s.begin, s.end, printed(*change.replacement)}
                                           : removal(out, s.begin, s.end);
        out.replace(splice.begin, splice.end - splice.begin, splice.with);
    }
    for (const auto& statement : additions) {
        // One blank line before the new statement; trailing white space of the text makes way for it.
        std::size_t keep = out.size();
        while (keep > 0 && (isBlank(out[keep - 1]) || out[keep - 1] == '\n'))
            --keep;
        out.resize(keep);
        out += (out.empty() ? "" : "\n\n") + printed(statement) + "\n";
    }
    return out;
}

} // namespace cdc::sql
