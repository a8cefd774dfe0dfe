#pragma once
/// Recursive-descent parser for Spark SQL and Lakeflow pipeline SQL. Errors are values carrying the
/// position of the offending token (`file:line:col: error: expected KEYS after source`); a script is
/// parsed statement by statement, recovering at `;` so that every statement's first error is reported.

#include "core/common/Diagnostic.h"
#include "core/sql/Ast.h"
#include "core/sql/Lexer.h"
#include "core/sql/Token.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cdc::sql {

struct ParsedScript {
    std::vector<Statement> statements;
    std::vector<Diagnostic> diagnostics;
};

class Parser {
public:
    Parser(std::string_view text, std::string file);
    /// Parses only text[start.offset, end): one statement of a script read statement by statement
    /// (ScriptExecutor), its positions those of the whole text.
    Parser(std::string_view text, std::string file, LexStart start, std::size_t end);

    /// Every statement of the text; statements with errors are left out and their first error reported.
    ParsedScript parseScript();
    /// The whole text must be one query (an optional trailing `;` allowed).
    Result<Query> parseSingleQuery();
    /// The whole text must be one expression.
    Result<Expr> parseSingleExpression();
    /// Byte ranges (offset, length) of the text's comments.
    const std::vector<std::pair<std::size_t, std::size_t>>& comments() const { return m_comments; }

private:
    // Each group below is defined in the file its comment names: one class, split by statement family.

    // tokens, errors and spans (Parser.cpp)
    const Token& cur() const { return tok(0); }
    const Token& tok(std::size_t ahead) const;
    void advance();
    bool atKeyword(std::string_view kw) const { return cur().isKeyword(kw); }
    bool atSymbol(std::string_view s) const { return cur().isSymbol(s); }
    bool acceptKeyword(std::string_view kw);
    bool acceptSymbol(std::string_view s);
    void expectKeyword(std::string_view kw, std::string_view context);
    void expectSymbol(std::string_view s, std::string_view context);
    void fail(const std::string& message);
    void failAt(const Token& where, const std::string& message);
    bool failed() const { return m_error.has_value(); }
    SourceLocation locationOf(const Token& t) const;
    Span beginSpan() const;
    void endSpan(Span& span) const;
    std::string describe(const Token& t) const;
    void expectEndOfInput();

    // names and small pieces (Parser.cpp)
    Ident parseIdent(std::string_view what);
    Name parseName(std::string_view what);
    bool atIdentifier() const;
    std::vector<Ident> parseParenIdentList(std::string_view context);
    ColumnSel parseColumnSel(std::string_view context);
    std::string parseStringLiteral(std::string_view context);
    std::string parseType();

    // a script's statements and source DDL/DML, with the table pieces pipeline datasets share
    // (ParserScript.cpp)
    Statement parseStatement();
    StatementBody parseCreate();
    CreateTableStmt parseCreateTable(bool orReplace);
    InsertStmt parseInsert();
    UpdateStmt parseUpdate();
    DeleteStmt parseDelete();
    std::vector<ColumnDef> parseColumnDefs(bool typed, std::vector<Expectation>* expectations = nullptr);
    std::vector<Property> parseProperties();
    bool parseTableClause(std::optional<std::string>& comment, std::vector<Property>& properties);

    // pipeline statements: streaming tables, views, flows, AUTO CDC / APPLY CHANGES (ParserPipeline.cpp)
    StreamingTableStmt parseStreamingTable(bool orRefresh, bool isPrivate, bool live);
    ViewStmt parseView(ViewStmt view);
    CreateFlowStmt parseFlow();
    AutoCdcSpec parseAutoCdc(bool withInto, bool legacy);
    int clauseAt() const;
    bool startsAutoCdcClause() const;
    void clauseOrderError(int clause, int last, const std::vector<bool>& seen);

    // queries (ParserQueries.cpp)
    Query parseQuery();
    QueryTerm parseSetExpression();
    QueryTerm parseIntersection();
    QueryTerm parseSetOperation(QueryTerm left, QueryTerm (Parser::*operand)());
    QueryTerm parseQueryPrimary();
    Select parseSelect();
    std::vector<std::vector<Expr>> parseValuesRows();
    TableRef parseFrom();
    TableRef parseJoinChain();
    TableRef parseTablePrimary();
    void parseTableAlias(TableRef& ref);
    bool atQueryStart() const;
    std::vector<OrderItem> parseOrderItems();

    // window functions: OVER, window specs and frames, the WINDOW clause (ParserWindows.cpp)
    WindowSpec parseOver();
    WindowSpec parseWindowSpec();
    FrameBound parseFrameBound();
    std::vector<NamedWindow> parseWindowClause();

    // expressions (ParserExpressions.cpp)
    Expr parseExpr();
    Expr parseArgument();
    Expr parseOr();
    Expr parseAnd();
    Expr parseNot();
    Expr parseComparison();
    Expr parsePredicate();
    Expr parseBinary(int minLevel);
    Expr parseUnary();
    Expr parsePostfix();
    Expr parsePrimary();
    Expr parseFunctionCall(Name name, Span span);
    void parseStarExcept(Expr& star);
    Expr parseCase(Span span);
    Expr parseInterval(Span span);
    Expr parseCast(Span span);

    // nesting depth (Parser.cpp): the tree's levels are counted as they open, see core/common/NestingLimit.h
    /// Opens one level for its lifetime, and one more per deeper(); past kMaxNestingDepth the parse fails
    /// at the current token, so no later walk over the tree can run out of stack.
    class Nesting {
    public:
        explicit Nesting(Parser& parser) : m_parser(parser) { deeper(); }
        ~Nesting() { m_parser.m_depth -= m_levels; }
        Nesting(const Nesting&) = delete;
        Nesting& operator=(const Nesting&) = delete;
        /// One level more: the next operand of a left-deep chain sits under every operator before it.
        void deeper();

    private:
        Parser& m_parser;
        int m_levels = 0;
    };

    /// A chain's next operand: opens the chain's first level, then one more each time.
    void deeperInChain(std::optional<Nesting>& chain);

    std::vector<Token> m_tokens;
    std::size_t m_pos = 0;
    int m_depth = 0;
    std::size_t m_prevEnd = 0;
    std::string m_file;
    std::optional<Diagnostic> m_error;
    Token m_endToken;
    std::vector<std::pair<std::size_t, std::size_t>> m_comments;
};

/// Words that cannot start an expression or serve as an implicit alias.
bool isReservedWord(std::string_view word);

} // namespace cdc::sql
