#include "core/python/PythonParser.h"

#include "core/common/NestingLimit.h"

namespace cdc::python {

namespace {

/// The levels a value opens, given back when it is read; the values' destructors recurse as deep.
class Depth {
public:
    explicit Depth(int& depth) : m_depth(depth) {}
    ~Depth() { m_depth -= m_levels; }
    Depth(const Depth&) = delete;
    Depth& operator=(const Depth&) = delete;
    /// One level more; false past the limit.
    bool deeper() {
        ++m_levels;
        return ++m_depth <= kMaxNestingDepth;
    }

private:
    int& m_depth;
    int m_levels = 0;
};

} // namespace

Status PythonParser::expectOp(const char* op, const char* context) {
    if (!atOp(op))
        return Diagnostic::error("PYTHON", std::string("expected '") + op + "' " + context, here());
    next();
    return Status::success();
}

Result<std::string> PythonParser::dottedName() {
    if (peek().kind != Tok::Name)
        return Diagnostic::error("PYTHON", "expected a name", here());
    std::string name = next().text;
    while (atOp(".") && peek(1).kind == Tok::Name) {
        next();
        name += "." + next().text;
    }
    return name;
}

Result<PyValuePtr> PythonParser::value() {
    Depth depth(m_depth);
    if (!depth.deeper())
        return nestingTooDeep(here());
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
            // a(x).b(y): each call holds the one before it, a level deeper
            if ((atOp("(") || atOp(".")) && v->kind == PyValue::Kind::Call && !depth.deeper())
                return nestingTooDeep(here());
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

Status PythonParser::arguments(PyValue& call) {
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

void PythonParser::skipNewlines() {
    while (peek().kind == Tok::Newline)
        next();
}

} // namespace cdc::python
