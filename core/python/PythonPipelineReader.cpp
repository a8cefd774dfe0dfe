#include "core/python/PythonPipelineReader.h"

#include "core/common/Text.h"
#include "core/pipeline/PipelineLocations.h"
#include "core/python/PythonParser.h"
#include "core/python/PythonSqlWriter.h"
#include "core/python/PythonTokenizer.h"

#include <cctype>
#include <optional>
#include <set>
#include <vector>

namespace cdc::python {

namespace {

// ---------------------------------------------------------------------------------------------------
// The recognizer of the declarative subset: Python statements to pipeline SQL

struct Translation {
    PythonSqlWriter writer;
    std::vector<Token> statementTokens; ///< first token of each Python statement (fallback positions)
};

class Translator {
public:
    Translator(std::string_view text, const std::string& file) : m_text(text), m_lines(text, file) {}

    Result<Translation> run() {
        PythonTokenizer tokenizer(m_text);
        auto tokens = tokenizer.run(m_lines);
        if (!tokens)
            return tokens.error();
        PythonParser p(*tokens, m_lines);
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

    Status statement(PythonParser& p) {
        const Token& first = p.peek();
        if (first.kind == Tok::Name && (first.text == "from" || first.text == "import"))
            return importStatement(p);
        if (first.kind == Tok::Op && first.text == "@")
            return decoratedFunction(p);
        if (first.kind == Tok::Name && first.text == "def")
            return error(
                first, "a function without a pipeline decorator (@dp.view, @dp.table, ...) is not supported: "
                       "CDC Studio reads pipeline files without running them");
        auto v = p.value();
        if (!v)
            return v.error();
        if (p.atOp("="))
            return error(p.peek(),
                         "assignments are not supported in pipeline files: CDC Studio reads them without "
                         "running Python");
        if ((*v)->kind != PyValue::Kind::Call)
            return error(first, "expected a pipeline API call such as dp.create_auto_cdc_flow(...)");
        return apiCall(**v);
    }

    Status importStatement(PythonParser& p) {
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
            return error(call.token, "'" + call.text +
                                         "' is not a pipeline API call (import the API with "
                                         "'from pyspark import pipelines as dp')");
        if (*fn == "create_streaming_table" || *fn == "create_streaming_live_table" ||
            *fn == "create_target_table")
            return streamingTable(call);
        if (*fn == "create_auto_cdc_flow" || *fn == "apply_changes")
            return autoCdcFlow(call);
        if (*fn == "create_auto_cdc_from_snapshot_flow" || *fn == "apply_changes_from_snapshot")
            return snapshotFlow(call);
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
        if (v.kind == PyValue::Kind::Call && (v.text == "col" || v.text.ends_with(".col")) &&
            v.items.size() == 1 && v.items[0]->kind == PyValue::Kind::String)
            return v.items[0].get();
        return error(v.token, std::string(what) + " must be a column name string or col(\"name\")");
    }

    Status columnList(PythonSqlWriter& w, const PyValue& v, const char* what) const {
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
    Status sqlExpression(PythonSqlWriter& w, const PyValue& v, const char* what) const {
        const PyValue* s = &v;
        if (v.kind == PyValue::Kind::Call && (v.text == "expr" || v.text.ends_with(".expr")) &&
            v.items.size() == 1)
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

    Status relation(PythonSqlWriter& w, const PyValue& v, bool stream) const {
        auto name = stringArg(v, "source");
        if (!name)
            return name.error();
        w.raw(stream ? "STREAM(" : "");
        w.from(v.token, *name);
        w.raw(stream ? ")" : "");
        return Status::success();
    }

    std::string boolText(const PyValue* v) const {
        return v && v->kind == PyValue::Kind::Bool ? v->text : "";
    }

    // --- statements ---------------------------------------------------------------------------

    /// ` (schema) COMMENT '...' TBLPROPERTIES (...)` from schema=, comment= and table_properties= (at these
    /// positions, or only by keyword when a position is 99).
    Status tableOptions(PythonSqlWriter& w, const PyValue& call, std::size_t schemaAt, std::size_t commentAt,
                        std::size_t propertiesAt) const {
        if (const PyValue* schema = arg(call, "schema", schemaAt)) {
            auto s = stringArg(*schema, "schema");
            if (!s)
                return s.error();
            w.raw(" (");
            w.from(schema->token, *s, schema->token.rawString);
            w.raw(")");
        }
        if (const PyValue* comment = arg(call, "comment", commentAt)) {
            auto c = stringArg(*comment, "comment");
            if (!c)
                return c.error();
            w.raw(" COMMENT ");
            w.from(comment->token, sqlString(*c));
        }
        if (const PyValue* props = arg(call, "table_properties", propertiesAt)) {
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
        return Status::success();
    }

    Status streamingTable(const PyValue& call) {
        CDC_TRY(checkKnownArguments(call, {"name", "comment", "spark_conf", "table_properties", "path",
                                           "partition_cols", "cluster_by_auto", "cluster_by", "schema",
                                           "expect_all", "expect_all_or_drop", "expect_all_or_fail",
                                           "row_filter", "private"}));
        const PyValue* name = arg(call, "name", 0);
        if (!name)
            return error(call.token, "create_streaming_table needs a name");
        auto n = stringArg(*name, "name");
        if (!n)
            return n.error();
        PythonSqlWriter& w = m_out.writer;
        w.from(call.token, "CREATE OR REFRESH STREAMING TABLE ");
        w.from(name->token, ident(*n));
        CDC_TRY(tableOptions(w, call, 8, 1, 3));
        w.raw(";\n");
        return Status::success();
    }

    Status autoCdcFlow(const PyValue& call) {
        CDC_TRY(checkKnownArguments(
            call, {"target", "source", "keys", "sequence_by", "system_sequence_by", "ignore_null_updates",
                   "ignore_null_updates_column_list", "ignore_null_updates_except_column_list",
                   "columns_to_update", "apply_as_deletes", "apply_as_truncates", "column_list",
                   "except_column_list", "stored_as_scd_type", "track_history_column_list",
                   "track_history_except_column_list", "name", "flow_name", "once"}));
        const PyValue* target = arg(call, "target", 0);
        const PyValue* source = arg(call, "source", 1);
        const PyValue* keys = arg(call, "keys", 2);
        const PyValue* sequence = arg(call, "sequence_by", 3);
        for (auto [v, what] :
             {std::pair{target, "target"}, {source, "source"}, {keys, "keys"}, {sequence, "sequence_by"}})
            if (!v)
                return error(call.token, call.text + " needs the '" + what + "' argument");
        auto targetName = stringArg(*target, "target");
        if (!targetName)
            return targetName.error();
        bool once = boolText(arg(call, "once", 99)) == "True";

        PythonSqlWriter& w = m_out.writer;
        w.from(call.token, "CREATE FLOW ");
        CDC_TRY(flowName(w, call, *target, *targetName));
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
        if (sequence->kind == PyValue::Kind::Call &&
            (sequence->text == "struct" || sequence->text.ends_with(".struct"))) {
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
        CDC_TRY(historyClauses(w, call));
        if (const PyValue* ctu = arg(call, "columns_to_update", 99)) {
            auto c = columnRef(*ctu, "columns_to_update");
            if (!c)
                return c.error();
            w.from(ctu->token, " COLUMNS TO UPDATE " + ident((*c)->text));
        }
        w.raw(";\n");
        return Status::success();
    }

    /// stored_as_scd_type and track_history_(except_)column_list, shared by both kinds of AUTO CDC flow.
    Status historyClauses(PythonSqlWriter& w, const PyValue& call) const {
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
        return Status::success();
    }

    /// The flow's name: `name` (or `flow_name`), else the target's.
    Status flowName(PythonSqlWriter& w, const PyValue& call, const PyValue& target,
                    const std::string& targetName) const {
        const PyValue* flowName = arg(call, "name", 99);
        if (!flowName)
            flowName = arg(call, "flow_name", 99);
        if (!flowName) {
            w.from(target.token, ident(targetName));
            return Status::success();
        }
        auto fn = stringArg(*flowName, "name");
        if (!fn)
            return fn.error();
        w.from(flowName->token, ident(*fn));
        return Status::success();
    }

    /// create_auto_cdc_from_snapshot_flow over a table or view (a periodic snapshot). A function source is
    /// Python that runs only when the file runs: the preview says so.
    Status snapshotFlow(const PyValue& call) {
        CDC_TRY(checkKnownArguments(call, {"target", "source", "keys", "stored_as_scd_type",
                                           "track_history_column_list", "track_history_except_column_list",
                                           "name", "flow_name"}));
        const PyValue* target = arg(call, "target", 0);
        const PyValue* source = arg(call, "source", 1);
        const PyValue* keys = arg(call, "keys", 2);
        for (auto [v, what] : {std::pair{target, "target"}, {source, "source"}, {keys, "keys"}})
            if (!v)
                return error(call.token, call.text + " needs the '" + what + "' argument");
        auto targetName = stringArg(*target, "target");
        if (!targetName)
            return targetName.error();
        if (source->kind != PyValue::Kind::String)
            return error(source->token, "the snapshot function '" + source->text +
                                            "' is Python that runs only when the file runs");
        PythonSqlWriter& w = m_out.writer;
        w.from(call.token, "CREATE FLOW ");
        CDC_TRY(flowName(w, call, *target, *targetName));
        w.from(call.token, " AS AUTO CDC INTO ");
        w.from(target->token, ident(*targetName));
        // FROM SNAPSHOT name, as the runtime writes it: the same model whether the file is read or run.
        w.raw(" FROM SNAPSHOT ");
        CDC_TRY(relation(w, *source, false));
        w.raw(" KEYS ");
        CDC_TRY(columnList(w, *keys, "keys"));
        CDC_TRY(historyClauses(w, call));
        w.raw(";\n");
        return Status::success();
    }

    Status sequenceField(PythonSqlWriter& w, const PyValue& v) const {
        auto c = columnRef(v, "sequence_by");
        if (c) {
            w.from((*c)->token, ident((*c)->text));
            return Status::success();
        }
        return sqlExpression(w, v, "sequence_by");
    }

    /// @dp.view / @dp.temporary_view / @dp.table / @dp.materialized_view / @dp.append_flow over
    /// `def f(): return <table read>`.
    Status decoratedFunction(PythonParser& p) {
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
            return Diagnostic::error("PYTHON", "expected a function definition after the decorator",
                                     p.here());
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
            return Diagnostic::error(
                "PYTHON",
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

        // A query in SQL (spark.sql("...")) is copied verbatim, so its positions map exactly; anything else
        // must be a table read.
        const PyValue* sqlQuery = sparkSql(*body1);
        Result<TableRead> read = TableRead{};
        if (sqlQuery)
            read->stream = readsStream(sqlQuery->text);
        else
            read = tableRead(*body1);
        if (!read)
            return read.error();
        PythonSqlWriter& w = m_out.writer;
        auto writeQuery = [&] {
            if (sqlQuery) {
                w.from(sqlQuery->token, sqlQuery->text, sqlQuery->token.rawString);
                return;
            }
            w.raw("SELECT * FROM ");
            w.raw(read->stream ? "STREAM(" : "");
            w.from(read->nameToken, ident(read->name));
            w.raw(read->stream ? ")" : "");
        };
        const bool decoratorCall = d.kind == PyValue::Kind::Call;
        if (*fn == "view" || *fn == "temporary_view") {
            w.from(at, "CREATE TEMPORARY VIEW ");
            w.from(fnName, ident(name));
            if (decoratorCall)
                CDC_TRY(tableOptions(w, d, 99, 99, 99));
            w.raw(" AS ");
            writeQuery();
        } else if (*fn == "table" || *fn == "materialized_view") {
            bool streaming = read->stream && *fn == "table";
            w.from(at,
                   streaming ? "CREATE OR REFRESH STREAMING TABLE " : "CREATE OR REFRESH MATERIALIZED VIEW ");
            w.from(fnName, ident(name));
            if (decoratorCall)
                CDC_TRY(tableOptions(w, d, 99, 99, 99));
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

    /// spark.sql("...") with one string argument.
    static const PyValue* sparkSql(const PyValue& v) {
        if (v.kind == PyValue::Kind::Call && v.text == "spark.sql" && v.items.size() == 1 &&
            v.kwargs.empty() && v.items[0]->kind == PyValue::Kind::String && !v.receiver)
            return v.items[0].get();
        return nullptr;
    }

    /// Whether a query reads a stream: `STREAM(` as a word, what the runtime's spark.sql decides by too.
    static bool readsStream(const std::string& sql) {
        const std::string word = "stream";
        for (std::size_t i = 0; i + word.size() <= sql.size(); ++i) {
            if (!equalsIgnoreCase(std::string_view(sql).substr(i, word.size()), word))
                continue;
            if (i > 0 && (std::isalnum(static_cast<unsigned char>(sql[i - 1])) || sql[i - 1] == '_'))
                continue;
            std::size_t j = i + word.size();
            while (j < sql.size() && std::isspace(static_cast<unsigned char>(sql[j])))
                ++j;
            if (j < sql.size() && sql[j] == '(')
                return true;
        }
        return false;
    }

    struct TableRead {
        std::string name;
        Token nameToken;
        bool stream = false;
    };

    /// spark.readStream.table("x"), spark.readStream.option(..).table("x"), spark.read.table("x"),
    /// dp.read_stream("x"), dp.read("x"), spark.table("x").
    Result<TableRead> tableRead(const PyValue& v) const {
        if (v.kind == PyValue::Kind::Call && v.items.size() >= 1 &&
            v.items[0]->kind == PyValue::Kind::String) {
            std::string callee = v.text;
            bool viaReceiver = v.receiver != nullptr;
            bool stream = callee.find("readStream") != std::string::npos || callee.ends_with("read_stream");
            if (viaReceiver) {
                for (const PyValue* r = v.receiver.get(); r; r = r->receiver.get())
                    if (r->text.find("readStream") != std::string::npos)
                        stream = true;
            }
            bool isRead = callee.ends_with(".table") || callee == "table" ||
                          callee.ends_with("read_stream") || callee.ends_with(".read");
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
    auto remap = [&](SourceLocation& l) {
        if (l.valid())
            l = out->writer.map(l, t.lines(), fallback);
    };
    for (auto& d : parsed.diagnostics)
        remap(d.location);
    // Every position in the pipeline, not a hand-kept list: a new located field cannot stay in SQL terms.
    pipeline::forEachLocation(parsed.pipeline, remap);
    return parsed;
}

} // namespace cdc::python
