#include "core/export/PythonPrinter.h"

#include "core/common/Text.h"
#include "core/sql/Printer.h"

#include <cctype>
#include <set>

namespace cdc::exporting {

namespace {

/// Whitespace collapsed and lower-cased: compares a canonical query with a simple shape.
std::string squeezed(const std::string& s) {
    std::string out;
    bool space = false;
    for (char c : s) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            space = !out.empty();
            continue;
        }
        if (space)
            out += ' ';
        space = false;
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
}

/// A Python identifier for the function that defines a dataset (the dataset's own name goes in name=).
std::string functionName(const std::string& name) {
    std::string out;
    for (char c : name)
        out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0])))
        out = "_" + out;
    return out;
}

/// A SQL text as a Python literal: a raw triple-quoted string when nothing in it needs escaping (the text
/// then maps byte for byte, so positions in the file stay exact), else an escaped one.
std::string sqlLiteral(const std::string& sql) {
    bool multiLine = sql.find('\n') != std::string::npos;
    if (sql.find("\"\"\"") == std::string::npos && sql.find('\\') == std::string::npos &&
        (sql.empty() || sql.back() != '"'))
        return multiLine ? "r\"\"\"" + sql + "\"\"\"" : "r\"" + sql + "\"";
    return pythonString(sql);
}

std::string stringList(const std::vector<pipeline::Identifier>& names) {
    std::string out = "[";
    for (std::size_t i = 0; i < names.size(); ++i)
        out += (i ? ", " : "") + pythonString(names[i].name);
    return out + "]";
}

class PythonWriter {
public:
    explicit PythonWriter(const pipeline::Pipeline& p) : m_p(p) {}

    PythonText run() {
        std::string body;
        for (const auto& t : m_p.streamingTables)
            body += streamingTable(t);
        for (const auto& v : m_p.views)
            body += view(v);
        for (const auto& f : m_p.cdcFlows)
            body += f.fromSnapshot ? snapshotFlow(f) : autoCdcFlow(f);
        for (const auto& f : m_p.appendFlows)
            if (!definesTable(f))
                body += appendFlow(f);
        std::string head =
            "# Exported by CDC Studio: the pipeline in the Lakeflow / Spark Declarative Pipelines "
            "Python API.\nfrom pyspark import pipelines as dp\n";
        if (!m_functions.empty()) {
            head += "from pyspark.sql.functions import ";
            std::size_t i = 0;
            for (const auto& f : m_functions)
                head += (i++ ? ", " : "") + f;
            head += "\n";
        }
        return {head + body, std::move(m_warnings)};
    }

private:
    /// `CREATE STREAMING TABLE t AS query`: the model's append flow named after its own table, which
    /// @dp.table says in one declaration.
    bool definesTable(const pipeline::AppendFlow& f) const {
        return !f.once && equalsIgnoreCase(f.name.name, f.target.name) && m_p.findTable(f.target.name);
    }
    const pipeline::AppendFlow* tableQuery(const pipeline::StreamingTable& t) const {
        for (const auto& f : m_p.appendFlows)
            if (definesTable(f) && equalsIgnoreCase(f.target.name, t.name.name))
                return &f;
        return nullptr;
    }

    void warn(const SourceLocation& at, std::string message) {
        m_warnings.push_back(Diagnostic::warning("EXPORT_PYTHON", std::move(message), at));
    }

    std::string column(const pipeline::ColumnSpec& c) const {
        std::string s = sql::Printer::identifier(c.name) + " " + c.type.toString();
        if (c.notNull)
            s += " NOT NULL";
        if (!c.comment.empty())
            s += " COMMENT " + sql::Printer::stringLiteral(c.comment);
        return s;
    }

    /// name=, comment=, schema=, table_properties= of a table declaration.
    std::string tableArguments(const pipeline::StreamingTable& t) const {
        std::string s = "    name=" + pythonString(t.name.name) + ",\n";
        if (!t.comment.empty())
            s += "    comment=" + pythonString(t.comment) + ",\n";
        if (!t.schema.empty()) {
            std::string schema;
            for (std::size_t i = 0; i < t.schema.size(); ++i)
                schema += (i ? ", " : "") + column(t.schema[i]);
            s += "    schema=" + pythonString(schema) + ",\n";
        }
        if (!t.properties.empty()) {
            s += "    table_properties={";
            std::size_t i = 0;
            for (const auto& [k, v] : t.properties)
                s += (i++ ? ", " : "") + pythonString(k) + ": " + pythonString(v);
            s += "},\n";
        }
        return s;
    }

    /// The body of a dataset function: the query as a table read when it is one, else spark.sql.
    std::string returnQuery(const pipeline::Query& q) const {
        if (q.relations.size() == 1 && !q.relations[0].call && !q.relations[0].changeFeed) {
            const auto& r = q.relations[0];
            std::string shape = squeezed(q.sparkText);
            if (r.stream && shape == squeezed("SELECT * FROM STREAM(" + r.name + ")"))
                return "    return spark.readStream.table(" + pythonString(r.name) + ")\n";
            if (!r.stream && shape == squeezed("SELECT * FROM " + r.name))
                return "    return spark.read.table(" + pythonString(r.name) + ")\n";
        }
        return "    return spark.sql(" + sqlLiteral(q.sparkText) + ")\n";
    }

    std::string streamingTable(const pipeline::StreamingTable& t) {
        if (const auto* f = tableQuery(t))
            return "\n\n@dp.table(\n" + tableArguments(t) + ")\ndef " + functionName(t.name.name) + "():\n" +
                   returnQuery(f->query);
        return "\n\ndp.create_streaming_table(\n" + tableArguments(t) + ")\n";
    }

    std::string view(const pipeline::View& v) {
        std::string decorator = v.materialized ? "materialized_view" : "temporary_view";
        if (!v.materialized && !v.temporary)
            warn(v.name.location,
                 "the Python API has no persisted view: '" + v.name.name +
                     "' is written as @dp.temporary_view (export in SQL to keep CREATE VIEW)");
        std::string s = "\n\n@dp." + decorator + "(\n    name=" + pythonString(v.name.name) + ",\n";
        if (!v.comment.empty())
            s += "    comment=" + pythonString(v.comment) + ",\n";
        return s + ")\ndef " + functionName(v.name.name) + "():\n" + returnQuery(v.query);
    }

    std::string expression(const pipeline::Expression& e) {
        if (e.columnName) {
            m_functions.insert("col");
            return "col(" + pythonString(*e.columnName) + ")";
        }
        m_functions.insert("expr");
        return "expr(" + sqlLiteral(e.sparkText) + ")";
    }

    static std::string selectionArgument(const pipeline::ColumnSelection& sel, const std::string& only,
                                         const std::string& except) {
        if (sel.mode == pipeline::ColumnSelection::Mode::Only)
            return "    " + only + "=" + stringList(sel.columns) + ",\n";
        if (sel.mode == pipeline::ColumnSelection::Mode::Except)
            return "    " + except + "=" + stringList(sel.columns) + ",\n";
        return "";
    }

    /// stored_as_scd_type and the history columns, shared by both kinds of AUTO CDC flow.
    std::string historyArguments(const pipeline::AutoCdcFlow& f) {
        std::string s;
        if (f.scdType == pipeline::ScdType::Type2)
            s += "    stored_as_scd_type=2,\n";
        if (f.trackHistory) {
            if (f.trackHistory->mode == pipeline::ColumnSelection::Mode::All)
                warn(f.trackHistory->location,
                     "TRACK HISTORY ON * is what SCD type 2 does anyway; the Python "
                     "API has no argument for it, so it is left to the default");
            s += selectionArgument(*f.trackHistory, "track_history_column_list",
                                   "track_history_except_column_list");
        }
        return s;
    }

    std::string flowNameArgument(const pipeline::AutoCdcFlow& f) const {
        return f.name.name == f.target.name ? "" : "    name=" + pythonString(f.name.name) + ",\n";
    }

    std::string autoCdcFlow(const pipeline::AutoCdcFlow& f) {
        if (f.source.call || f.source.changeFeed) {
            warn(f.source.location, "the Python API reads an AUTO CDC source by its name only: '" +
                                        f.source.name +
                                        "' is a table function (export in SQL, or read it in a view first)");
            return "\n\n# Not expressible in Python (see the export's warnings): the AUTO CDC flow " +
                   f.name.name + " from " + f.source.name + "\n";
        }
        if (!f.source.stream && !f.once)
            warn(f.source.location, "the Python API reads an AUTO CDC source as a stream: FROM " +
                                        f.source.name + " is written as source=\"" + f.source.name +
                                        "\", which means STREAM(" + f.source.name + ")");
        std::string s = "\n\ndp.create_auto_cdc_flow(\n";
        s += "    target=" + pythonString(f.target.name) + ",\n";
        s += "    source=" + pythonString(f.source.name) + ",\n";
        s += "    keys=" + stringList(f.keys) + ",\n";
        if (f.sequenceIsStruct) {
            m_functions.insert("struct");
            s += "    sequence_by=struct(";
            for (std::size_t i = 0; i < f.sequenceBy.size(); ++i) {
                const auto& e = f.sequenceBy[i];
                s += (i ? ", " : "") + (e.columnName ? pythonString(*e.columnName) : expression(e));
            }
            s += "),\n";
        } else if (!f.sequenceBy.empty()) {
            s += "    sequence_by=" + expression(f.sequenceBy.front()) + ",\n";
        }
        if (f.applyAsDelete)
            s += "    apply_as_deletes=" + forceExpr(*f.applyAsDelete) + ",\n";
        if (f.applyAsTruncate)
            s += "    apply_as_truncates=" + forceExpr(*f.applyAsTruncate) + ",\n";
        if (f.ignoreNullUpdates) {
            if (f.ignoreNullUpdates->mode == pipeline::ColumnSelection::Mode::All)
                s += "    ignore_null_updates=True,\n";
            else
                s += selectionArgument(*f.ignoreNullUpdates, "ignore_null_updates_column_list",
                                       "ignore_null_updates_except_column_list");
        }
        s += selectionArgument(f.columns, "column_list", "except_column_list");
        s += historyArguments(f);
        if (f.columnsToUpdate)
            s += "    columns_to_update=" + pythonString(f.columnsToUpdate->name) + ",\n";
        s += flowNameArgument(f);
        if (f.once)
            s += "    once=True,\n";
        return s + ")\n";
    }

    /// A condition is always a SQL expression, even when it is a bare (boolean) column.
    std::string forceExpr(const pipeline::Expression& e) {
        m_functions.insert("expr");
        return "expr(" + sqlLiteral(e.sparkText) + ")";
    }

    std::string snapshotFlow(const pipeline::AutoCdcFlow& f) {
        // The API takes a table or view name (a periodic snapshot) or a Python function; FROM SNAPSHOT
        // (SELECT * FROM t) is the first.
        const pipeline::Query* q = f.snapshotQuery ? &*f.snapshotQuery : nullptr;
        bool plainTable = q && !f.versionQuery && q->relations.size() == 1 && !q->relations[0].call &&
                          !q->relations[0].stream &&
                          squeezed(q->sparkText) == squeezed("SELECT * FROM " + q->relations[0].name);
        if (plainTable && f.source.name.empty())
            warn(f.location, "FROM SNAPSHOT (SELECT * FROM " + q->relations[0].name +
                                 ") is written as source=\"" + q->relations[0].name +
                                 "\", which reads as FROM SNAPSHOT " + q->relations[0].name +
                                 " (the same snapshot)");
        if (!plainTable) {
            warn(f.location,
                 "AUTO CDC FROM SNAPSHOT with " +
                     std::string(f.versionQuery ? "WITH VERSION" : "a query other than SELECT * FROM table") +
                     " has no Python equivalent but a snapshot function written by hand: the flow '" +
                     f.name.name + "' is left as a comment (export in SQL to keep it)");
            std::string s = "\n\n# AUTO CDC FROM SNAPSHOT flow " + f.name.name + " into " + f.target.name +
                            " (not expressible in Python, see the export's warnings):\n";
            if (q) {
                std::string line;
                for (char c : q->sparkText + "\n") {
                    if (c != '\n') {
                        line += c;
                        continue;
                    }
                    s += "#   " + line + "\n";
                    line.clear();
                }
            }
            return s;
        }
        std::string s = "\n\ndp.create_auto_cdc_from_snapshot_flow(\n";
        s += "    target=" + pythonString(f.target.name) + ",\n";
        s += "    source=" + pythonString(q->relations[0].name) + ",\n";
        s += "    keys=" + stringList(f.keys) + ",\n";
        s += historyArguments(f);
        s += flowNameArgument(f);
        return s + ")\n";
    }

    std::string appendFlow(const pipeline::AppendFlow& f) {
        std::string s = "\n\n@dp.append_flow(\n    target=" + pythonString(f.target.name) +
                        ",\n    name=" + pythonString(f.name.name) + ",\n";
        if (f.once)
            s += "    once=True,\n";
        return s + ")\ndef " + functionName(f.name.name) + "():\n" + returnQuery(f.query);
    }

    const pipeline::Pipeline& m_p;
    std::set<std::string> m_functions;
    std::vector<Diagnostic> m_warnings;
};

} // namespace

std::string pythonString(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        switch (c) {
        case '\\':
            out += "\\\\";
            break;
        case '"':
            out += "\\\"";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            out += c;
        }
    }
    return out + "\"";
}

PythonText printPython(const pipeline::Pipeline& pipeline) {
    return PythonWriter(pipeline).run();
}

} // namespace cdc::exporting
