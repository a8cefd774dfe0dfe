#include "core/python/PythonPipelineReader.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <variant>
#include <vector>

namespace cdc::python {

namespace {

// ---------------------------------------------------------------------------------------------------
// Positions

/// Maps byte offsets of a text to 1-based line:column.
class LineIndex {
public:
    LineIndex(std::string_view text, std::string file) : m_file(std::move(file)) {
        m_starts.push_back(0);
        for (std::size_t i = 0; i < text.size(); ++i)
            if (text[i] == '\n')
                m_starts.push_back(i + 1);
    }
    SourceLocation at(std::size_t offset, std::size_t length = 0) const {
        auto it = std::upper_bound(m_starts.begin(), m_starts.end(), offset);
        std::size_t line = static_cast<std::size_t>(it - m_starts.begin());
        return {m_file, static_cast<int>(line), static_cast<int>(offset - m_starts[line - 1] + 1), offset, length};
    }

private:
    std::string m_file;
    std::vector<std::size_t> m_starts;
};

// ---------------------------------------------------------------------------------------------------
// Tokens

enum class Tok { Name, String, Number, Op, Newline, End };

struct Token {
    Tok kind = Tok::End;
    std::string text;         ///< name / operator / number text; for strings the decoded value
    std::size_t offset = 0;   ///< first byte of the token
    std::size_t length = 0;
    std::size_t valueOffset = 0; ///< strings: first byte of the content (after the quotes)
    bool rawString = true;    ///< strings: content maps 1:1 to source bytes (no escapes decoded)
    int indent = 0;           ///< Newline tokens: indentation of the next logical line
};

class Tokenizer {
public:
    explicit Tokenizer(std::string_view text) : m_text(text) {}

    Result<std::vector<Token>> run(const LineIndex& lines) {
        std::vector<Token> out;
        int depth = 0;
        std::size_t i = 0;
        bool lineStart = true;
        while (i < m_text.size()) {
            char c = m_text[i];
            if (lineStart) {
                // Measure indentation; skip blank and comment-only lines entirely.
                std::size_t j = i;
                int indent = 0;
                while (j < m_text.size() && (m_text[j] == ' ' || m_text[j] == '\t')) {
                    indent += m_text[j] == '\t' ? 8 : 1;
                    ++j;
                }
                if (j >= m_text.size())
                    break;
                if (m_text[j] == '\n' || m_text[j] == '\r' || m_text[j] == '#') {
                    while (j < m_text.size() && m_text[j] != '\n')
                        ++j;
                    i = j + 1;
                    continue;
                }
                if (!out.empty() && out.back().kind != Tok::Newline)
                    out.push_back({Tok::Newline, "", j, 0, 0, true, indent});
                else if (!out.empty())
                    out.back().indent = indent;
                lineStart = false;
                i = j;
                continue;
            }
            if (c == '#') {
                while (i < m_text.size() && m_text[i] != '\n')
                    ++i;
                continue;
            }
            if (c == '\\' && i + 1 < m_text.size() && m_text[i + 1] == '\n') {
                i += 2;
                continue;
            }
            if (c == '\n') {
                ++i;
                if (depth == 0)
                    lineStart = true;
                continue;
            }
            if (std::isspace(static_cast<unsigned char>(c))) {
                ++i;
                continue;
            }
            if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
                std::size_t start = i;
                while (i < m_text.size() && (std::isalnum(static_cast<unsigned char>(m_text[i])) || m_text[i] == '_'))
                    ++i;
                std::string word(m_text.substr(start, i - start));
                // String prefixes (r"...", f"...", b"...") glue onto the following quote.
                if (i < m_text.size() && (m_text[i] == '"' || m_text[i] == '\'') && word.size() <= 2 &&
                    word.find_first_not_of("rRbBfFuU") == std::string::npos) {
                    auto s = readString(i, start, lines, word);
                    if (!s)
                        return s.error();
                    out.push_back(*s);
                    i = s->offset + s->length;
                    continue;
                }
                out.push_back({Tok::Name, word, start, i - start});
                continue;
            }
            if (std::isdigit(static_cast<unsigned char>(c))) {
                std::size_t start = i;
                while (i < m_text.size() && (std::isalnum(static_cast<unsigned char>(m_text[i])) || m_text[i] == '.' ||
                                             m_text[i] == '_'))
                    ++i;
                out.push_back({Tok::Number, std::string(m_text.substr(start, i - start)), start, i - start});
                continue;
            }
            if (c == '"' || c == '\'') {
                auto s = readString(i, i, lines, "");
                if (!s)
                    return s.error();
                out.push_back(*s);
                i = s->offset + s->length;
                continue;
            }
            if (c == '-' && i + 1 < m_text.size() && m_text[i + 1] == '>') {
                out.push_back({Tok::Op, "->", i, 2});
                i += 2;
                continue;
            }
            if (c == '*' && i + 1 < m_text.size() && m_text[i + 1] == '*') {
                out.push_back({Tok::Op, "**", i, 2});
                i += 2;
                continue;
            }
            if (std::string_view("()[]{},:=.@*").find(c) != std::string_view::npos) {
                if (c == '(' || c == '[' || c == '{')
                    ++depth;
                if ((c == ')' || c == ']' || c == '}') && depth > 0)
                    --depth;
                out.push_back({Tok::Op, std::string(1, c), i, 1});
                ++i;
                continue;
            }
            return Diagnostic::error("PYTHON", std::string("unexpected character '") + c + "' in a pipeline file",
                                     lines.at(i, 1));
        }
        out.push_back({Tok::Newline, "", m_text.size(), 0, 0, true, 0});
        out.push_back({Tok::End, "", m_text.size(), 0});
        return out;
    }

private:
    Result<Token> readString(std::size_t quotePos, std::size_t tokenStart, const LineIndex& lines,
                             const std::string& prefix) {
        char q = m_text[quotePos];
        bool triple = m_text.substr(quotePos, 3) == std::string(3, q);
        std::size_t contentStart = quotePos + (triple ? 3 : 1);
        bool raw = prefix.find_first_of("rR") != std::string::npos;
        std::string value;
        bool verbatim = true;
        std::size_t i = contentStart;
        for (;;) {
            if (i >= m_text.size() || (!triple && m_text[i] == '\n'))
                return Diagnostic::error("PYTHON", "unterminated string literal", lines.at(quotePos, 1));
            if (triple ? m_text.substr(i, 3) == std::string(3, q) : m_text[i] == q)
                break;
            if (m_text[i] == '\\' && !raw && i + 1 < m_text.size()) {
                verbatim = false;
                char e = m_text[i + 1];
                value += e == 'n' ? '\n' : e == 't' ? '\t' : e;
                i += 2;
                continue;
            }
            value += m_text[i++];
        }
        std::size_t end = i + (triple ? 3 : 1);
        Token t{Tok::String, value, tokenStart, end - tokenStart};
        t.valueOffset = contentStart;
        t.rawString = verbatim;
        return t;
    }

    std::string_view m_text;
};

// ---------------------------------------------------------------------------------------------------
// Python values of the declarative subset

struct PyValue;
using PyValuePtr = std::shared_ptr<PyValue>;

struct PyValue {
    enum class Kind { String, Number, Bool, None, List, Dict, Call, Name };
    Kind kind = Kind::None;
    std::string text;                  ///< String value, Number text, Name dotted path, Call callee path
    std::vector<PyValuePtr> items;     ///< List items, Call positional args, Dict values
    std::vector<std::string> keys;     ///< Dict keys (string keys only)
    std::map<std::string, PyValuePtr> kwargs;
    PyValuePtr receiver;               ///< Call on the result of another call: a.b(x).c(y)
    Token token;                       ///< first token (strings: the literal)
};

class Parser {
public:
    Parser(const std::vector<Token>& tokens, const LineIndex& lines) : m_t(tokens), m_lines(lines) {}

    const Token& peek(std::size_t ahead = 0) const { return m_t[std::min(m_pos + ahead, m_t.size() - 1)]; }
    const Token& next() { return m_t[std::min(m_pos++, m_t.size() - 1)]; }
    bool atOp(const char* op) const { return peek().kind == Tok::Op && peek().text == op; }
    bool atName(const char* name) const { return peek().kind == Tok::Name && peek().text == name; }
    SourceLocation here() const { return m_lines.at(peek().offset, peek().length); }

    Status expectOp(const char* op, const char* context) {
        if (!atOp(op))
            return Diagnostic::error("PYTHON", std::string("expected '") + op + "' " + context, here());
        next();
        return Status::success();
    }

    Result<std::string> dottedName() {
        if (peek().kind != Tok::Name)
            return Diagnostic::error("PYTHON", "expected a name", here());
        std::string name = next().text;
        while (atOp(".") && peek(1).kind == Tok::Name) {
            next();
            name += "." + next().text;
        }
        return name;
    }

    Result<PyValuePtr> value() {
        auto v = std::make_shared<PyValue>();
        v->token = peek();
        const Token& t = peek();
        if (t.kind == Tok::String) {
            v->kind = PyValue::Kind::String;
            v->text = next().text;
            // Adjacent literals concatenate; keep the first token for positions.
            while (peek().kind == Tok::String) {
                v->text += next().text;
                v->token.rawString = false;
            }
            return v;
        }
        if (t.kind == Tok::Number) {
            v->kind = PyValue::Kind::Number;
            v->text = next().text;
            return v;
        }
        if (atOp("[") || atOp("(")) {
            std::string close = atOp("[") ? "]" : ")";
            next();
            v->kind = PyValue::Kind::List;
            while (!atOp(close.c_str())) {
                auto item = value();
                if (!item)
                    return item.error();
                v->items.push_back(*item);
                if (atOp(","))
                    next();
                else if (!atOp(close.c_str()))
                    return Diagnostic::error("PYTHON", "expected ',' or '" + close + "' in a list", here());
            }
            next();
            return v;
        }
        if (atOp("{")) {
            next();
            v->kind = PyValue::Kind::Dict;
            while (!atOp("}")) {
                auto key = value();
                if (!key)
                    return key.error();
                if ((*key)->kind != PyValue::Kind::String)
                    return Diagnostic::error("PYTHON", "dictionary keys must be string literals",
                                             m_lines.at((*key)->token.offset, (*key)->token.length));
                CDC_TRY(expectOp(":", "after a dictionary key"));
                auto val = value();
                if (!val)
                    return val.error();
                v->keys.push_back((*key)->text);
                v->items.push_back(*val);
                if (atOp(","))
                    next();
                else if (!atOp("}"))
                    return Diagnostic::error("PYTHON", "expected ',' or '}' in a dictionary", here());
            }
            next();
            return v;
        }
        if (t.kind == Tok::Name) {
            if (t.text == "True" || t.text == "False") {
                v->kind = PyValue::Kind::Bool;
                v->text = next().text;
                return v;
            }
            if (t.text == "None") {
                next();
                return v;
            }
            auto name = dottedName();
            if (!name)
                return name.error();
            v->kind = PyValue::Kind::Name;
            v->text = *name;
            // Calls, possibly chained: spark.readStream.option("a", "b").table("x")
            for (;;) {
                if (atOp("(")) {
                    auto call = std::make_shared<PyValue>();
                    call->kind = PyValue::Kind::Call;
                    call->token = v->token;
                    if (v->kind == PyValue::Kind::Name)
                        call->text = v->text;
                    else
                        call->receiver = v;
                    CDC_TRY(arguments(*call));
                    v = call;
                    continue;
                }
                if (atOp(".") && peek(1).kind == Tok::Name && v->kind == PyValue::Kind::Call) {
                    next();
                    auto method = dottedName();
                    if (!method)
                        return method.error();
                    auto call = std::make_shared<PyValue>();
                    call->kind = PyValue::Kind::Call;
                    call->token = v->token;
                    call->text = *method;
                    call->receiver = v;
                    if (!atOp("("))
                        return Diagnostic::error("PYTHON", "expected '(' after ." + *method, here());
                    CDC_TRY(arguments(*call));
                    v = call;
                    continue;
                }
                break;
            }
            return v;
        }
        return Diagnostic::error("PYTHON", "unsupported Python expression in a pipeline definition", here());
    }

    Status arguments(PyValue& call) {
        CDC_TRY(expectOp("(", "to open the argument list"));
        while (!atOp(")")) {
            if (peek().kind == Tok::Name && peek(1).kind == Tok::Op && peek(1).text == "=") {
                std::string key = next().text;
                next();
                auto v = value();
                if (!v)
                    return v.error();
                call.kwargs[key] = *v;
            } else {
                auto v = value();
                if (!v)
                    return v.error();
                call.items.push_back(*v);
            }
            if (atOp(","))
                next();
            else if (!atOp(")"))
                return Diagnostic::error("PYTHON", "expected ',' or ')' in the argument list", here());
        }
        next();
        return Status::success();
    }

    void skipNewlines() {
        while (peek().kind == Tok::Newline)
            next();
    }

    std::size_t position() const { return m_pos; }

private:
    const std::vector<Token>& m_t;
    const LineIndex& m_lines;
    std::size_t m_pos = 0;
};

// ---------------------------------------------------------------------------------------------------
// SQL generation with a map back to the Python source

/// A piece of generated SQL and where it came from in the .py file.
struct Segment {
    std::size_t sqlBegin = 0, sqlEnd = 0;
    std::size_t pyOffset = 0, pyLength = 0;
    bool exact = false; ///< SQL bytes correspond 1:1 to Python bytes (verbatim string contents)
};

class SqlWriter {
public:
    void raw(std::string_view s) { m_sql += s; }
    /// Text attributed to a Python token (approximately, or exactly for verbatim string content).
    void from(const Token& t, std::string_view s, bool exact = false) {
        Segment seg{m_sql.size(), 0, exact ? t.valueOffset : t.offset, t.length, exact};
        m_sql += s;
        seg.sqlEnd = m_sql.size();
        m_segments.push_back(seg);
    }
    const std::string& sql() const { return m_sql; }

    /// Where a position in the generated SQL lies in the Python file.
    SourceLocation map(const SourceLocation& sqlLoc, const LineIndex& py, const Token& statementToken) const {
        for (auto it = m_segments.rbegin(); it != m_segments.rend(); ++it) {
            if (sqlLoc.offset >= it->sqlBegin && sqlLoc.offset < std::max(it->sqlEnd, it->sqlBegin + 1)) {
                if (it->exact)
                    return py.at(it->pyOffset + (sqlLoc.offset - it->sqlBegin), sqlLoc.length);
                return py.at(it->pyOffset, it->pyLength);
            }
        }
        return py.at(statementToken.offset, statementToken.length);
    }

private:
    std::string m_sql;
    std::vector<Segment> m_segments;
};

std::string ident(const std::string& name) {
    bool simple = !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_') &&
                  std::all_of(name.begin(), name.end(), [](unsigned char c) { return std::isalnum(c) || c == '_' || c == '.'; });
    if (simple)
        return name;
    std::string out = "`";
    for (char c : name) {
        if (c == '`')
            out += '`';
        out += c;
    }
    return out + "`";
}

std::string sqlString(const std::string& s) {
    std::string out = "'";
    for (char c : s) {
        if (c == '\'' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + "'";
}

struct Translation {
    SqlWriter writer;
    std::vector<Token> statementTokens; ///< first token of each Python statement (fallback positions)
};

class Translator {
public:
    Translator(std::string_view text, const std::string& file) : m_text(text), m_lines(text, file) {}

    Result<Translation> run() {
        Tokenizer tokenizer(m_text);
        auto tokens = tokenizer.run(m_lines);
        if (!tokens)
            return tokens.error();
        Parser p(*tokens, m_lines);
        p.skipNewlines();
        while (p.peek().kind != Tok::End) {
            m_out.statementTokens.push_back(p.peek());
            CDC_TRY(statement(p));
            p.skipNewlines();
        }
        return std::move(m_out);
    }

    const LineIndex& lines() const { return m_lines; }

private:
    SourceLocation loc(const Token& t) const { return m_lines.at(t.offset, t.length); }
    Diagnostic error(const Token& t, std::string message) const {
        return Diagnostic::error("PYTHON", std::move(message), loc(t));
    }

    bool isModule(const std::string& name) const { return m_modules.count(name) > 0; }

    Status statement(Parser& p) {
        const Token& first = p.peek();
        if (first.kind == Tok::Name && (first.text == "from" || first.text == "import"))
            return importStatement(p);
        if (first.kind == Tok::Op && first.text == "@")
            return decoratedFunction(p);
        if (first.kind == Tok::Name && first.text == "def")
            return error(first, "a function without a pipeline decorator (@dp.view, @dp.table, ...) is not supported: "
                                "CDC Studio reads pipeline files without running them");
        auto v = p.value();
        if (!v)
            return v.error();
        if (p.atOp("="))
            return error(p.peek(), "assignments are not supported in pipeline files: CDC Studio reads them without "
                                   "running Python");
        if ((*v)->kind != PyValue::Kind::Call)
            return error(first, "expected a pipeline API call such as dp.create_auto_cdc_flow(...)");
        return apiCall(**v);
    }

    Status importStatement(Parser& p) {
        // from pyspark import pipelines as dp | import dlt | from pyspark.sql.functions import col, expr
        bool fromForm = p.next().text == "from";
        std::string module;
        if (fromForm) {
            auto m = p.dottedName();
            if (!m)
                return m.error();
            module = *m;
            if (!p.atName("import"))
                return Diagnostic::error("PYTHON", "expected 'import'", p.here());
            p.next();
        }
        for (;;) {
            if (p.atOp("(") || p.atOp(")")) {
                p.next();
                continue;
            }
            auto name = p.dottedName();
            if (!name)
                return name.error();
            std::string alias = *name;
            if (p.atName("as")) {
                p.next();
                auto a = p.dottedName();
                if (!a)
                    return a.error();
                alias = *a;
            }
            std::string full = fromForm ? module + "." + *name : *name;
            if (full == "pyspark.pipelines" || full == "dlt")
                m_modules.insert(alias);
            if (!p.atOp(","))
                break;
            p.next();
        }
        if (p.atOp(")"))
            p.next();
        return Status::success();
    }

    /// Splits `dp.create_auto_cdc_flow` into the module alias and the function, if it is a pipeline API.
    std::optional<std::string> apiFunction(const std::string& callee) const {
        auto dot = callee.rfind('.');
        if (dot == std::string::npos || !isModule(callee.substr(0, dot)))
            return std::nullopt;
        return callee.substr(dot + 1);
    }

    Status apiCall(const PyValue& call) {
        auto fn = apiFunction(call.text);
        if (!fn)
            return error(call.token, "'" + call.text + "' is not a pipeline API call (import the API with "
                                     "'from pyspark import pipelines as dp')");
        if (*fn == "create_streaming_table" || *fn == "create_streaming_live_table" || *fn == "create_target_table")
            return streamingTable(call);
        if (*fn == "create_auto_cdc_flow" || *fn == "apply_changes")
            return autoCdcFlow(call);
        if (*fn == "create_auto_cdc_from_snapshot_flow" || *fn == "apply_changes_from_snapshot")
            return error(call.token, "create_auto_cdc_from_snapshot_flow is not supported in Python pipeline files yet; "
                                     "use AUTO CDC ... FROM SNAPSHOT in pipeline SQL");
        return error(call.token, "unsupported pipeline API function '" + *fn + "'");
    }

    // --- argument access ------------------------------------------------------------------------

    const PyValue* arg(const PyValue& call, const char* name, std::size_t position) const {
        if (auto it = call.kwargs.find(name); it != call.kwargs.end())
            return it->second->kind == PyValue::Kind::None ? nullptr : it->second.get();
        if (position < call.items.size())
            return call.items[position]->kind == PyValue::Kind::None ? nullptr : call.items[position].get();
        return nullptr;
    }

    Status checkKnownArguments(const PyValue& call, const std::set<std::string>& known) const {
        for (const auto& [key, v] : call.kwargs)
            if (!known.count(key))
                return error(v->token, "unknown argument '" + key + "' for " + call.text);
        return Status::success();
    }

    Result<std::string> stringArg(const PyValue& v, const char* what) const {
        if (v.kind != PyValue::Kind::String)
            return error(v.token, std::string(what) + " must be a string literal");
        return v.text;
    }

    /// A column given as "name" or col("name").
    Result<const PyValue*> columnRef(const PyValue& v, const char* what) const {
        if (v.kind == PyValue::Kind::String)
            return &v;
        if (v.kind == PyValue::Kind::Call && (v.text == "col" || v.text.ends_with(".col")) && v.items.size() == 1 &&
            v.items[0]->kind == PyValue::Kind::String)
            return v.items[0].get();
        return error(v.token, std::string(what) + " must be a column name string or col(\"name\")");
    }

    Status columnList(SqlWriter& w, const PyValue& v, const char* what) const {
        if (v.kind != PyValue::Kind::List)
            return error(v.token, std::string(what) + " must be a list of column names");
        w.raw("(");
        for (std::size_t i = 0; i < v.items.size(); ++i) {
            auto c = columnRef(*v.items[i], what);
            if (!c)
                return c.error();
            if (i)
                w.raw(", ");
            w.from((*c)->token, ident((*c)->text));
        }
        w.raw(")");
        return Status::success();
    }

    /// A SQL expression given as "text" or expr("text"): copied verbatim so positions map exactly.
    Status sqlExpression(SqlWriter& w, const PyValue& v, const char* what) const {
        const PyValue* s = &v;
        if (v.kind == PyValue::Kind::Call && (v.text == "expr" || v.text.ends_with(".expr")) && v.items.size() == 1)
            s = v.items[0].get();
        if (s->kind == PyValue::Kind::Call && (s->text == "col" || s->text.ends_with(".col"))) {
            auto c = columnRef(*s, what);
            if (!c)
                return c.error();
            w.from((*c)->token, ident((*c)->text));
            return Status::success();
        }
        if (s->kind != PyValue::Kind::String)
            return error(v.token, std::string(what) + " must be a SQL string or expr(\"...\")");
        w.from(s->token, s->text, s->token.rawString);
        return Status::success();
    }

    Status relation(SqlWriter& w, const PyValue& v, bool stream) const {
        auto name = stringArg(v, "source");
        if (!name)
            return name.error();
        w.raw(stream ? "STREAM(" : "");
        w.from(v.token, *name);
        w.raw(stream ? ")" : "");
        return Status::success();
    }

    std::string boolText(const PyValue* v) const { return v && v->kind == PyValue::Kind::Bool ? v->text : ""; }

    // --- statements ---------------------------------------------------------------------------

    Status streamingTable(const PyValue& call) {
        CDC_TRY(checkKnownArguments(call, {"name", "comment", "spark_conf", "table_properties", "path", "partition_cols",
                                           "cluster_by_auto", "cluster_by", "schema", "expect_all", "expect_all_or_drop",
                                           "expect_all_or_fail", "row_filter", "private"}));
        const PyValue* name = arg(call, "name", 0);
        if (!name)
            return error(call.token, "create_streaming_table needs a name");
        auto n = stringArg(*name, "name");
        if (!n)
            return n.error();
        SqlWriter& w = m_out.writer;
        w.from(call.token, "CREATE OR REFRESH STREAMING TABLE ");
        w.from(name->token, ident(*n));
        if (const PyValue* schema = arg(call, "schema", 8)) {
            auto s = stringArg(*schema, "schema");
            if (!s)
                return s.error();
            w.raw(" (");
            w.from(schema->token, *s, schema->token.rawString);
            w.raw(")");
        }
        if (const PyValue* comment = arg(call, "comment", 1)) {
            auto c = stringArg(*comment, "comment");
            if (!c)
                return c.error();
            w.raw(" COMMENT ");
            w.from(comment->token, sqlString(*c));
        }
        if (const PyValue* props = arg(call, "table_properties", 3)) {
            if (props->kind != PyValue::Kind::Dict)
                return error(props->token, "table_properties must be a dictionary of strings");
            w.raw(" TBLPROPERTIES (");
            for (std::size_t i = 0; i < props->keys.size(); ++i) {
                if (i)
                    w.raw(", ");
                const PyValue& val = *props->items[i];
                std::string text = val.kind == PyValue::Kind::String ? val.text : val.text;
                w.from(val.token, sqlString(props->keys[i]) + " = " + sqlString(text));
            }
            w.raw(")");
        }
        w.raw(";\n");
        return Status::success();
    }

    Status autoCdcFlow(const PyValue& call) {
        CDC_TRY(checkKnownArguments(
            call, {"target", "source", "keys", "sequence_by", "system_sequence_by", "ignore_null_updates",
                   "ignore_null_updates_column_list", "ignore_null_updates_except_column_list", "columns_to_update",
                   "apply_as_deletes", "apply_as_truncates", "column_list", "except_column_list", "stored_as_scd_type",
                   "track_history_column_list", "track_history_except_column_list", "name", "flow_name", "once"}));
        const PyValue* target = arg(call, "target", 0);
        const PyValue* source = arg(call, "source", 1);
        const PyValue* keys = arg(call, "keys", 2);
        const PyValue* sequence = arg(call, "sequence_by", 3);
        for (auto [v, what] : {std::pair{target, "target"}, {source, "source"}, {keys, "keys"}, {sequence, "sequence_by"}})
            if (!v)
                return error(call.token, call.text + " needs the '" + what + "' argument");
        auto targetName = stringArg(*target, "target");
        if (!targetName)
            return targetName.error();
        const PyValue* flowName = arg(call, "name", 99);
        if (!flowName)
            flowName = arg(call, "flow_name", 99);
        bool once = boolText(arg(call, "once", 99)) == "True";

        SqlWriter& w = m_out.writer;
        w.from(call.token, "CREATE FLOW ");
        if (flowName) {
            auto fn = stringArg(*flowName, "name");
            if (!fn)
                return fn.error();
            w.from(flowName->token, ident(*fn));
        } else {
            w.from(target->token, ident(*targetName));
        }
        w.from(call.token, once ? " AS AUTO CDC ONCE INTO " : " AS AUTO CDC INTO ");
        w.from(target->token, ident(*targetName));
        w.raw(" FROM ");
        CDC_TRY(relation(w, *source, !once));
        w.raw(" KEYS ");
        CDC_TRY(columnList(w, *keys, "keys"));

        const PyValue* ignoreNull = arg(call, "ignore_null_updates", 99);
        const PyValue* ignoreNullOn = arg(call, "ignore_null_updates_column_list", 99);
        const PyValue* ignoreNullExcept = arg(call, "ignore_null_updates_except_column_list", 99);
        if (ignoreNullOn) {
            w.from(ignoreNullOn->token, " IGNORE NULL UPDATES ON ");
            CDC_TRY(columnList(w, *ignoreNullOn, "ignore_null_updates_column_list"));
        } else if (ignoreNullExcept) {
            w.from(ignoreNullExcept->token, " IGNORE NULL UPDATES ON * EXCEPT ");
            CDC_TRY(columnList(w, *ignoreNullExcept, "ignore_null_updates_except_column_list"));
        } else if (boolText(ignoreNull) == "True") {
            w.from(ignoreNull->token, " IGNORE NULL UPDATES");
        }
        if (const PyValue* del = arg(call, "apply_as_deletes", 99)) {
            w.from(del->token, " APPLY AS DELETE WHEN ");
            CDC_TRY(sqlExpression(w, *del, "apply_as_deletes"));
        }
        if (const PyValue* trunc = arg(call, "apply_as_truncates", 99)) {
            w.from(trunc->token, " APPLY AS TRUNCATE WHEN ");
            CDC_TRY(sqlExpression(w, *trunc, "apply_as_truncates"));
        }
        w.from(sequence->token, " SEQUENCE BY ");
        if (sequence->kind == PyValue::Kind::Call && (sequence->text == "struct" || sequence->text.ends_with(".struct"))) {
            w.from(sequence->token, "STRUCT(");
            for (std::size_t i = 0; i < sequence->items.size(); ++i) {
                if (i)
                    w.raw(", ");
                CDC_TRY(sequenceField(w, *sequence->items[i]));
            }
            w.raw(")");
        } else {
            CDC_TRY(sequenceField(w, *sequence));
        }
        if (const PyValue* cols = arg(call, "column_list", 99)) {
            w.from(cols->token, " COLUMNS ");
            CDC_TRY(columnList(w, *cols, "column_list"));
        } else if (const PyValue* except = arg(call, "except_column_list", 99)) {
            w.from(except->token, " COLUMNS * EXCEPT ");
            CDC_TRY(columnList(w, *except, "except_column_list"));
        }
        if (const PyValue* scd = arg(call, "stored_as_scd_type", 99)) {
            std::string type = scd->text;
            if (type == "1" || type == "2")
                w.from(scd->token, " STORED AS SCD TYPE " + type);
            else
                return error(scd->token, "stored_as_scd_type must be 1 or 2 (\"1\" or \"2\")");
        }
        if (const PyValue* track = arg(call, "track_history_column_list", 99)) {
            w.from(track->token, " TRACK HISTORY ON ");
            CDC_TRY(columnList(w, *track, "track_history_column_list"));
        } else if (const PyValue* trackExcept = arg(call, "track_history_except_column_list", 99)) {
            w.from(trackExcept->token, " TRACK HISTORY ON * EXCEPT ");
            CDC_TRY(columnList(w, *trackExcept, "track_history_except_column_list"));
        }
        if (const PyValue* ctu = arg(call, "columns_to_update", 99)) {
            auto c = columnRef(*ctu, "columns_to_update");
            if (!c)
                return c.error();
            w.from(ctu->token, " COLUMNS TO UPDATE " + ident((*c)->text));
        }
        w.raw(";\n");
        return Status::success();
    }

    Status sequenceField(SqlWriter& w, const PyValue& v) const {
        auto c = columnRef(v, "sequence_by");
        if (c) {
            w.from((*c)->token, ident((*c)->text));
            return Status::success();
        }
        return sqlExpression(w, v, "sequence_by");
    }

    /// @dp.view / @dp.temporary_view / @dp.table / @dp.materialized_view / @dp.append_flow over
    /// `def f(): return <table read>`.
    Status decoratedFunction(Parser& p) {
        const Token at = p.next();
        auto decorator = p.value();
        if (!decorator)
            return decorator.error();
        const PyValue& d = **decorator;
        std::string callee = d.kind == PyValue::Kind::Call ? d.text : d.text;
        auto fn = apiFunction(callee);
        if (!fn)
            return error(at, "unsupported decorator '@" + callee + "'");
        p.skipNewlines();
        if (!p.atName("def"))
            return Diagnostic::error("PYTHON", "expected a function definition after the decorator", p.here());
        p.next();
        if (p.peek().kind != Tok::Name)
            return Diagnostic::error("PYTHON", "expected the function name", p.here());
        const Token fnName = p.next();
        CDC_TRY(p.expectOp("(", "after the function name"));
        while (!p.atOp(")") && p.peek().kind != Tok::End)
            p.next();
        CDC_TRY(p.expectOp(")", "to close the parameter list"));
        if (p.atOp("->")) {
            p.next();
            auto ann = p.dottedName();
            if (!ann)
                return ann.error();
        }
        CDC_TRY(p.expectOp(":", "after the function signature"));
        p.skipNewlines();
        if (p.peek().kind == Tok::String) { // docstring
            p.next();
            p.skipNewlines();
        }
        if (!p.atName("return"))
            return Diagnostic::error("PYTHON",
                                     "a pipeline function must consist of one 'return' of a table read such as "
                                     "spark.readStream.table(\"name\")",
                                     p.here());
        p.next();
        bool parenthesized = p.atOp("(");
        auto body = p.value();
        if (!body)
            return body.error();
        const PyValue* body1 = body->get();
        if (parenthesized && body1->kind == PyValue::Kind::List && body1->items.size() == 1)
            body1 = body1->items[0].get();

        std::string name = fnName.text;
        const PyValue* nameArg = d.kind == PyValue::Kind::Call ? arg(d, "name", 0) : nullptr;
        if (nameArg && nameArg->kind == PyValue::Kind::String && *fn != "append_flow")
            name = nameArg->text;

        auto read = tableRead(*body1);
        if (!read)
            return read.error();
        SqlWriter& w = m_out.writer;
        auto writeQuery = [&] {
            w.raw("SELECT * FROM ");
            w.raw(read->stream ? "STREAM(" : "");
            w.from(read->nameToken, ident(read->name));
            w.raw(read->stream ? ")" : "");
        };
        if (*fn == "view" || *fn == "temporary_view") {
            w.from(at, "CREATE TEMPORARY VIEW ");
            w.from(fnName, ident(name));
            w.raw(" AS ");
            writeQuery();
        } else if (*fn == "table" || *fn == "materialized_view") {
            bool streaming = read->stream && *fn == "table";
            w.from(at, streaming ? "CREATE OR REFRESH STREAMING TABLE " : "CREATE OR REFRESH MATERIALIZED VIEW ");
            w.from(fnName, ident(name));
            w.raw(" AS ");
            writeQuery();
        } else if (*fn == "append_flow") {
            const PyValue* target = d.kind == PyValue::Kind::Call ? arg(d, "target", 0) : nullptr;
            if (!target || target->kind != PyValue::Kind::String)
                return error(at, "@append_flow needs target=\"table\"");
            if (nameArg && nameArg->kind == PyValue::Kind::String)
                name = nameArg->text;
            bool once = d.kind == PyValue::Kind::Call && boolText(arg(d, "once", 99)) == "True";
            w.from(at, "CREATE FLOW ");
            w.from(fnName, ident(name));
            w.raw(once ? " AS INSERT INTO ONCE " : " AS INSERT INTO ");
            w.from(target->token, ident(target->text));
            w.raw(" BY NAME ");
            writeQuery();
        } else {
            return error(at, "unsupported decorator '@" + callee + "'");
        }
        w.raw(";\n");
        return Status::success();
    }

    struct TableRead {
        std::string name;
        Token nameToken;
        bool stream = false;
    };

    /// spark.readStream.table("x"), spark.readStream.option(..).table("x"), spark.read.table("x"),
    /// dp.read_stream("x"), dp.read("x"), spark.table("x").
    Result<TableRead> tableRead(const PyValue& v) const {
        if (v.kind == PyValue::Kind::Call && v.items.size() >= 1 && v.items[0]->kind == PyValue::Kind::String) {
            std::string callee = v.text;
            bool viaReceiver = v.receiver != nullptr;
            bool stream = callee.find("readStream") != std::string::npos || callee.ends_with("read_stream");
            if (viaReceiver) {
                for (const PyValue* r = v.receiver.get(); r; r = r->receiver.get())
                    if (r->text.find("readStream") != std::string::npos)
                        stream = true;
            }
            bool isRead = callee.ends_with(".table") || callee == "table" || callee.ends_with("read_stream") ||
                          callee.ends_with(".read");
            if (isRead)
                return TableRead{v.items[0]->text, v.items[0]->token, stream};
        }
        return error(v.token, "only functions returning a table read (spark.readStream.table(\"name\"), "
                              "spark.read.table(\"name\")) are supported; CDC Studio does not run Python");
    }

    std::string_view m_text;
    LineIndex m_lines;
    std::set<std::string> m_modules;
    Translation m_out;
};

} // namespace

Result<std::string> translateToSql(std::string_view pythonText, const std::string& file) {
    Translator t(pythonText, file);
    auto out = t.run();
    if (!out)
        return out.error();
    return out->writer.sql();
}

sql::PipelineParse parsePythonPipeline(std::string_view pythonText, const std::string& file) {
    Translator t(pythonText, file);
    auto out = t.run();
    if (!out) {
        sql::PipelineParse failed;
        failed.diagnostics.push_back(out.error());
        return failed;
    }
    const std::string generated = out->writer.sql();
    sql::PipelineParse parsed = sql::parsePipeline(generated, file);
    Token fallback;
    if (!out->statementTokens.empty())
        fallback = out->statementTokens.front();
    for (auto& d : parsed.diagnostics)
        if (d.location.valid())
            d.location = out->writer.map(d.location, t.lines(), fallback);
    auto remap = [&](SourceLocation& l) {
        if (l.valid())
            l = out->writer.map(l, t.lines(), fallback);
    };
    for (auto& w : parsed.pipeline.warnings)
        remap(w.location);
    for (auto& f : parsed.pipeline.cdcFlows) {
        remap(f.location);
        remap(f.name.location);
        remap(f.target.location);
        remap(f.source.location);
        for (auto& k : f.keys)
            remap(k.location);
        for (auto& s : f.sequenceBy)
            remap(s.location);
        if (f.applyAsDelete)
            remap(f.applyAsDelete->location);
        if (f.applyAsTruncate)
            remap(f.applyAsTruncate->location);
        remap(f.columns.location);
        for (auto& c : f.columns.columns)
            remap(c.location);
        if (f.trackHistory) {
            remap(f.trackHistory->location);
            for (auto& c : f.trackHistory->columns)
                remap(c.location);
        }
        remap(f.storedAsLocation);
    }
    for (auto& s : parsed.pipeline.streamingTables) {
        remap(s.location);
        remap(s.name.location);
    }
    for (auto& v : parsed.pipeline.views) {
        remap(v.location);
        remap(v.name.location);
        remap(v.query.location);
    }
    return parsed;
}

} // namespace cdc::python
