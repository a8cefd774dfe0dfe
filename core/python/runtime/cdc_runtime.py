# CDC Studio's Python pipeline runtime, compiled into the programs and run by the Python worker
# (core/python/PythonWorker.cpp) in a process of its own. It installs our `pyspark.pipelines` (alias `dp`),
# `dlt`, `pyspark.sql` and `pyspark.sql.functions` modules, runs the user's pipeline file as a real program
# and records the graph it declares as pipeline SQL, one statement per declaration with the .py position
# it came from. Nothing here touches a database: DataFrames are SQL text.
#
# Entry points (called by the worker): record(source, file, volumes_root) and
# call_snapshot_function(source, file, volumes_root, flow, last_version). Both return a dict ready for JSON.

import os
import re
import sys
import traceback
import types

_state = None


class PipelineError(Exception):
    """A misuse of the pipeline API: shown to the user as is, at the line of the call."""


class _State:
    def __init__(self, file, volumes_root, tables=None):
        self.file = file
        self.volumes_root = volumes_root
        # The column names of the relations the project already has (lower-cased name -> names), so that
        # withColumn, drop and unionByName over a table read resolve its columns as Spark does.
        self.tables = {k.lower(): list(v) for k, v in (tables or {}).items()}
        self.declarations = []  # (kind, position, payload) in declaration order
        self.names = 0
        self.current = None


# --- positions ---------------------------------------------------------------------------------------


def _position(frame):
    line, col = frame.f_lineno, 0
    try:
        positions = list(frame.f_code.co_positions())[frame.f_lasti // 2]
        if positions[0] == line and positions[2] is not None:
            col = positions[2]
    except Exception:  # positions are a nicety: the line alone is still right
        pass
    return (line, col + 1)


def _caller():
    """The (line, column) in the user's file of the innermost call being made from it."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename != _state.file:
        frame = frame.f_back
    return _position(frame) if frame is not None else (0, 0)


def _error_position(exc):
    """The user-file frame nearest to where `exc` was raised: (line, column)."""
    entries = [e for e in traceback.extract_tb(exc.__traceback__) if e.filename == _state.file]
    if not entries:
        return None
    last = entries[-1]
    col = getattr(last, "colno", None)
    return (last.lineno, (col or 0) + 1)


# --- SQL text ----------------------------------------------------------------------------------------

_SIMPLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _ident(name):
    if not isinstance(name, str) or not name:
        raise PipelineError("expected a name, got %r" % (name,))
    return ".".join(p if _SIMPLE.match(p) else "`" + p.replace("`", "``") + "`" for p in name.split("."))


def _string(s):
    return "'" + str(s).replace("\\", "\\\\").replace("'", "\\'") + "'"


def _literal(v):
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, Column):
        return v._sql
    raise PipelineError("a value of type %s cannot be written as SQL" % type(v).__name__)


# --- Column and functions ----------------------------------------------------------------------------


class Column:
    """A column expression of pyspark.sql.functions, as Spark SQL text."""

    def __init__(self, sql, atomic=False, name=None):
        object.__setattr__(self, "_sql", sql)
        object.__setattr__(self, "_atomic", atomic)
        object.__setattr__(self, "_name", name)  # set for col("x"): a plain column reference

    def __getattr__(self, attr):
        raise PipelineError("Column.%s is not supported by CDC Studio's DataFrame API" % attr)

    def __repr__(self):
        return "Column<'%s'>" % self._sql

    def __bool__(self):
        raise PipelineError("a Column cannot be used as a Python truth value; combine conditions with "
                            "&, | and ~")

    def _operand(self):
        return self._sql if self._atomic else "(" + self._sql + ")"

    def _binary(self, op, other, reverse=False):
        o = _operand(other)
        return Column(o + " " + op + " " + self._operand() if reverse else self._operand() + " " + op + " " + o)

    __eq__ = lambda self, o: self._binary("=", o)  # noqa: E731
    __ne__ = lambda self, o: self._binary("<>", o)  # noqa: E731
    __lt__ = lambda self, o: self._binary("<", o)  # noqa: E731
    __le__ = lambda self, o: self._binary("<=", o)  # noqa: E731
    __gt__ = lambda self, o: self._binary(">", o)  # noqa: E731
    __ge__ = lambda self, o: self._binary(">=", o)  # noqa: E731
    __and__ = lambda self, o: self._binary("AND", o)  # noqa: E731
    __or__ = lambda self, o: self._binary("OR", o)  # noqa: E731
    __rand__ = lambda self, o: self._binary("AND", o, True)  # noqa: E731
    __ror__ = lambda self, o: self._binary("OR", o, True)  # noqa: E731
    __add__ = lambda self, o: self._binary("+", o)  # noqa: E731
    __sub__ = lambda self, o: self._binary("-", o)  # noqa: E731
    __mul__ = lambda self, o: self._binary("*", o)  # noqa: E731
    __truediv__ = lambda self, o: self._binary("/", o)  # noqa: E731
    __mod__ = lambda self, o: self._binary("%", o)  # noqa: E731
    __radd__ = lambda self, o: self._binary("+", o, True)  # noqa: E731
    __rsub__ = lambda self, o: self._binary("-", o, True)  # noqa: E731
    __rmul__ = lambda self, o: self._binary("*", o, True)  # noqa: E731
    __rtruediv__ = lambda self, o: self._binary("/", o, True)  # noqa: E731
    __hash__ = None

    def __invert__(self):
        return Column("NOT " + self._operand())

    def __neg__(self):
        return Column("-" + self._operand())

    def isNull(self):
        return Column(self._operand() + " IS NULL")

    def isNotNull(self):
        return Column(self._operand() + " IS NOT NULL")

    def eqNullSafe(self, other):
        return self._binary("<=>", other)

    def isin(self, *values):
        if len(values) == 1 and isinstance(values[0], (list, tuple, set)):
            values = list(values[0])
        return Column(self._operand() + " IN (" + ", ".join(_operand(v) for v in values) + ")")

    def between(self, low, high):
        return Column(self._operand() + " BETWEEN " + _operand(low) + " AND " + _operand(high))

    def like(self, pattern):
        return Column(self._operand() + " LIKE " + _string(pattern))

    def rlike(self, pattern):
        return Column(self._operand() + " RLIKE " + _string(pattern))

    def startswith(self, prefix):
        return Column("startswith(" + self._sql + ", " + _operand(prefix) + ")", True)

    def endswith(self, suffix):
        return Column("endswith(" + self._sql + ", " + _operand(suffix) + ")", True)

    def contains(self, part):
        return Column("contains(" + self._sql + ", " + _operand(part) + ")", True)

    def cast(self, data_type):
        if not isinstance(data_type, str):
            data_type = getattr(data_type, "simpleString", lambda: None)() or str(data_type)
        return Column("CAST(" + self._sql + " AS " + data_type.upper() + ")", True)

    astype = cast

    def alias(self, name):
        return _Aliased(self, name)

    name = alias

    def getField(self, field):
        return Column(self._operand() + "." + _ident(field), True)

    def asc(self):
        return Column(self._sql + " ASC")

    def desc(self):
        return Column(self._sql + " DESC")

    def when(self, condition, value):
        raise PipelineError("Column.when is only valid after functions.when(...)")

    def otherwise(self, value):
        raise PipelineError("Column.otherwise is only valid after functions.when(...)")


class _Aliased(Column):
    def __init__(self, column, alias):
        Column.__init__(self, column._sql, column._atomic, None)
        object.__setattr__(self, "_alias", alias)

    def _select_item(self):
        return self._sql + " AS " + _ident(self._alias)


class _When(Column):
    def __init__(self, branches, default=None):
        sql = "CASE " + " ".join("WHEN " + c + " THEN " + v for c, v in branches)
        sql += (" ELSE " + default if default is not None else "") + " END"
        Column.__init__(self, sql, True)
        object.__setattr__(self, "_branches", branches)

    def when(self, condition, value):
        return _When(self._branches + [(_condition(condition), _operand(value))])

    def otherwise(self, value):
        return _When(self._branches, _operand(value))


def _operand(v):
    """A value in an expression: a Column's SQL, or a Python value as a literal."""
    return v._operand() if isinstance(v, Column) else _literal(v)


def _column(v):
    """A column argument: a Column, or a column name (Spark's functions take names as strings)."""
    if isinstance(v, Column):
        return v
    if isinstance(v, str):
        return Column("*" if v == "*" else _ident(v), True, v)
    raise PipelineError("expected a column name or a Column, got %r" % (v,))


def _condition(v):
    """A filter or CDC condition: SQL text as written, or a Column."""
    if isinstance(v, str):
        return v
    if isinstance(v, Column):
        return v._sql
    raise PipelineError("expected a SQL condition string or a Column, got %r" % (v,))


def _select_item(v):
    c = _column(v)
    return c._select_item() if isinstance(c, _Aliased) else c._sql


def _make_functions():
    m = types.ModuleType("pyspark.sql.functions")

    def col(name):
        return _column(name) if isinstance(name, str) else _column(str(name))

    def expr(sql):
        if not isinstance(sql, str):
            raise PipelineError("expr() takes a SQL string")
        return Column(sql)

    def lit(value):
        return Column(_literal(value), True)

    def struct(*cols):
        if len(cols) == 1 and isinstance(cols[0], (list, tuple)):
            cols = cols[0]
        return Column("STRUCT(" + ", ".join(_select_item(c) for c in cols) + ")", True)

    def when(condition, value):
        return _When([(_condition(condition), _operand(value))])

    def call(fn):
        def f(*args):
            return Column(fn + "(" + ", ".join(_column(a)._sql if isinstance(a, str) else _operand(a)
                                                 for a in args) + ")", True)
        f.__name__ = fn
        return f

    m.col = m.column = col
    m.expr = expr
    m.lit = lit
    m.struct = struct
    m.when = when
    m.Column = Column
    # Every other Spark SQL function by its name, e.g. upper("city"), current_timestamp(): the SQL front
    # end checks the name and arguments like in pipeline SQL.
    m.__getattr__ = lambda name: call(name) if not name.startswith("__") else _no_attribute(m, name)
    return m


def _no_attribute(module, name):
    raise AttributeError("module %r has no attribute %r" % (module.__name__, name))


# --- DataFrames ------------------------------------------------------------------------------------

_STREAM_READ = re.compile(r"\bstream\s*\(", re.IGNORECASE)
# The name a select item gives its column: a plain (possibly qualified) column, or `... AS name`.
_OUTPUT_NAME = re.compile(r"(?:^(?:[A-Za-z_][A-Za-z0-9_]*\.)*|\sAS\s+)([A-Za-z_][A-Za-z0-9_]*|`[^`]+`)\Z")


class DataFrame:
    """A query as SQL text: a FROM item with an optional projection and conditions."""

    def __init__(self, source, streaming, columns=None, conditions=(), alias=None, query=None, known=None):
        d = self.__dict__
        d["_source"] = source
        d["isStreaming"] = streaming
        d["_columns"] = columns  # None: SELECT *
        d["_known"] = known  # the names * stands for, when the project knows them
        d["_conditions"] = list(conditions)
        d["_alias"] = alias
        d["_query"] = query  # spark.sql text, used as is
        d["_where"] = _caller()

    def __getattr__(self, attr):
        raise PipelineError("DataFrame.%s is not supported by CDC Studio's DataFrame API (it knows select, "
                            "filter, where, withColumn, drop, join, union, unionByName and alias)" % attr)

    def __setattr__(self, attr, value):
        raise PipelineError("DataFrame attributes cannot be set")

    def __repr__(self):
        return "DataFrame[%s]" % self._sql()

    def _sql(self):
        if self._query is not None:
            return self._query
        sql = "SELECT " + (", ".join(self._columns) if self._columns else "*") + " FROM " + self._source
        if self._conditions:
            sql += " WHERE " + " AND ".join(
                c if len(self._conditions) == 1 else "(" + c + ")" for c in self._conditions)
        return sql

    def _plain(self):
        return self._query is None and self._columns is None and not self._conditions

    def _from_item(self):
        """This DataFrame as a FROM item of another query."""
        if self._plain() and " JOIN " not in self._source:
            return self._source + (" AS " + _ident(self._alias) if self._alias else "")
        _state.names += 1
        return "(" + self._sql() + ") AS " + _ident(self._alias or "_q%d" % _state.names)

    def _wrapped(self):
        """A DataFrame whose FROM item is this one, so a projection or condition can follow."""
        if self._query is None and self._columns is None:
            return self
        return DataFrame(self._from_item(), self.isStreaming, known=self._output_names())

    def _with(self, **changes):
        d = dict(source=self._source, streaming=self.isStreaming, columns=self._columns,
                 conditions=self._conditions, alias=self._alias, query=self._query, known=self._known)
        d.update(changes)
        return DataFrame(**d)

    def select(self, *cols):
        if len(cols) == 1 and isinstance(cols[0], (list, tuple)):
            cols = cols[0]
        if not cols:
            raise PipelineError("select() needs at least one column")
        return self._wrapped()._with(columns=[_select_item(c) for c in cols])

    def selectExpr(self, *exprs):
        return self._wrapped()._with(columns=list(exprs))

    def filter(self, condition):
        base = self._wrapped()
        return base._with(conditions=base._conditions + [_condition(condition)])

    where = filter

    def _output_names(self):
        """The result's column names when the projection names them all, or * stands for known names; else
        None."""
        if self._query is not None:
            return None
        if self._columns is None:
            return list(self._known) if self._known is not None else None
        names = []
        for item in self._columns:
            m = _OUTPUT_NAME.search(item)
            if not m:
                return None
            names.append(m.group(1).strip("`"))
        return names

    def withColumn(self, name, column):
        if not isinstance(column, Column):
            raise PipelineError("withColumn() takes a Column, e.g. lit(1) or col(\"x\")")
        item = column._sql + " AS " + _ident(name)
        names = self._output_names()
        if names is None:
            # Nothing tells what * stands for (a dataset no update has made yet): the column is added.
            return self._wrapped()._with(columns=["*", item])
        # The columns are known: one of the same name is replaced in place, as Spark does, over the
        # projection (the expression reads its output).
        columns = [item if n.lower() == name.lower() else _ident(n) for n in names]
        if item not in columns:
            columns.append(item)
        return DataFrame(self._from_item(), self.isStreaming, columns)

    def withColumnRenamed(self, existing, new):
        return self.withColumn(new, _column(existing)).drop(existing)

    def drop(self, *cols):
        names = [c._name if isinstance(c, Column) else c for c in cols]
        if any(not isinstance(n, str) for n in names):
            raise PipelineError("drop() takes column names or col(\"name\")")
        dropped = [n.lower() for n in names]
        known = self._output_names()
        if known is None:
            return self._wrapped()._with(columns=["* EXCEPT (" + ", ".join(_ident(n) for n in names) + ")"])
        items = self._columns if self._columns is not None else [_ident(n) for n in known]
        return self._with(columns=[item for item, n in zip(items, known) if n.lower() not in dropped])

    def alias(self, name):
        return self._with(alias=name)

    def join(self, other, on=None, how="inner"):
        if not isinstance(other, DataFrame):
            raise PipelineError("join() takes a DataFrame")
        kinds = {"inner": "JOIN", "cross": "CROSS JOIN", "outer": "FULL OUTER JOIN", "full": "FULL OUTER JOIN",
                 "fullouter": "FULL OUTER JOIN", "full_outer": "FULL OUTER JOIN", "left": "LEFT JOIN",
                 "leftouter": "LEFT JOIN", "left_outer": "LEFT JOIN", "right": "RIGHT JOIN",
                 "rightouter": "RIGHT JOIN", "right_outer": "RIGHT JOIN", "semi": "LEFT SEMI JOIN",
                 "leftsemi": "LEFT SEMI JOIN", "left_semi": "LEFT SEMI JOIN", "anti": "LEFT ANTI JOIN",
                 "leftanti": "LEFT ANTI JOIN", "left_anti": "LEFT ANTI JOIN"}
        kind = kinds.get(str(how).lower())
        if kind is None:
            raise PipelineError("unknown join type %r" % (how,))
        source = self._from_item() + " " + kind + " " + other._from_item()
        if isinstance(on, str):
            on = [on]
        if isinstance(on, (list, tuple)) and on and all(isinstance(k, str) for k in on):
            source += " USING (" + ", ".join(_ident(k) for k in on) + ")"
        elif isinstance(on, (list, tuple)) and on:
            source += " ON " + " AND ".join(_operand(c) for c in on)
        elif isinstance(on, Column):
            source += " ON " + on._sql
        elif on is not None:
            raise PipelineError("join() takes on= as column names or a Column condition")
        return DataFrame(source, self.isStreaming or other.isStreaming)

    def union(self, other):
        if not isinstance(other, DataFrame):
            raise PipelineError("union() takes a DataFrame")
        _state.names += 1
        query = self._sql() + " UNION ALL " + other._sql()
        return DataFrame("(" + query + ") AS _u%d" % _state.names, self.isStreaming or other.isStreaming,
                         known=self._output_names())  # by position: the left side names the columns

    unionAll = union

    def unionByName(self, other, allowMissingColumns=False):
        if not isinstance(other, DataFrame):
            raise PipelineError("unionByName() takes a DataFrame")
        left, right = self._output_names(), other._output_names()
        if left is None or right is None:
            # Neither the file nor the project says what * stands for: by position, as the pipeline SQL has
            # no UNION BY NAME (the SQL front end checks the column counts).
            return self.union(other)
        lower_left, lower_right = [n.lower() for n in left], [n.lower() for n in right]
        if not allowMissingColumns:
            for names, others in ((left, lower_right), (right, lower_left)):
                for n in names:
                    if n.lower() not in others:
                        raise PipelineError("unionByName(): the column %s is missing on one side (pass "
                                            "allowMissingColumns=True to fill it with NULL)" % n)
        # Spark's result: the left side's columns, then the right side's others; a side's missing column is
        # NULL.
        result = left + [n for n in right if n.lower() not in lower_left]

        def side(df, names):
            have = [n.lower() for n in names]
            return df.select(*[_column(n) if n.lower() in have else Column("NULL AS " + _ident(n))
                               for n in result])

        return side(self, left).union(side(other, right))

    def distinct(self):
        return self._wrapped()._with(columns=["DISTINCT *"])


def _table_read(name, streaming):
    if not isinstance(name, str):
        raise PipelineError("the table to read must be a name string, got %r" % (name,))
    return DataFrame("STREAM(" + _ident(name) + ")" if streaming else _ident(name), streaming,
                     known=_known_columns(name))


def _known_columns(name):
    """The project's column names of the relation `name` resolves to, as the catalog resolves names: the exact
    name, else the one relation whose name ends with `.name`; None when unknown or ambiguous."""
    key = name.lower()
    if key in _state.tables:
        return _state.tables[key]
    matches = [v for k, v in _state.tables.items() if k.endswith("." + key)]
    return matches[0] if len(matches) == 1 else None


class DataFrameReader:
    def __init__(self, streaming, fmt=None, options=None):
        self.__dict__.update(_streaming=streaming, _format=fmt, _options=dict(options or {}))

    def __getattr__(self, attr):
        kind = "DataStreamReader" if self._streaming else "DataFrameReader"
        raise PipelineError("%s.%s is not supported by CDC Studio (it knows table, format, option, options "
                            "and load)" % (kind, attr))

    def table(self, name):
        # Rate limits do not change what a triggered update reads; any other option would, so it is refused.
        changing = [k for k in self._options if k not in ("maxFilesPerTrigger", "maxBytesPerTrigger")]
        if changing:
            raise PipelineError("the option %r of a table read is not supported by CDC Studio" % changing[0])
        return _table_read(name, self._streaming)

    def format(self, fmt):
        return DataFrameReader(self._streaming, fmt, self._options)

    def option(self, key, value):
        options = dict(self._options)
        options[key] = value
        return DataFrameReader(self._streaming, self._format, options)

    def options(self, **kw):
        options = dict(self._options)
        options.update(kw)
        return DataFrameReader(self._streaming, self._format, options)

    def load(self, path=None):
        fmt = (self._format or "").lower()
        if fmt not in ("csv", "json"):
            raise PipelineError("only the csv and json formats can be read (format(%r))" % (self._format,))
        if not isinstance(path, str):
            raise PipelineError("load() needs a path")
        if path.startswith("dbfs:"):
            path = path[len("dbfs:"):]
        args = [_string(path), "format => " + _string(fmt)]
        for key, value in self._options.items():
            if isinstance(value, bool) or str(value).lower() in ("true", "false"):
                value = str(value).lower()
            else:
                value = _string(value)
            args.append(_ident(str(key)) + " => " + value)
        item = "read_files(" + ", ".join(args) + ")"
        return DataFrame("STREAM " + item if self._streaming else item, self._streaming)

    def csv(self, path, header=None, **kw):
        r = self.format("csv")
        if header is not None:
            r = r.option("header", header)
        return r.options(**kw).load(path)

    def json(self, path, **kw):
        return self.format("json").options(**kw).load(path)


class _Conf:
    def get(self, key, default=None):
        if default is None:
            raise PipelineError("the pipeline configuration has no value for %r (give a default: "
                                "spark.conf.get(key, default))" % (key,))
        return default

    def __getattr__(self, attr):
        raise PipelineError("spark.conf.%s is not supported by CDC Studio (it knows get)" % attr)


class SparkSession:
    def __init__(self):
        self.__dict__.update(read=DataFrameReader(False), readStream=DataFrameReader(True), conf=_Conf())

    def __getattr__(self, attr):
        raise PipelineError("spark.%s is not supported by CDC Studio (it knows read, readStream, table and "
                            "sql)" % attr)

    def table(self, name):
        return _table_read(name, False)

    def sql(self, query):
        if not isinstance(query, str):
            raise PipelineError("spark.sql() takes a SQL string")
        return DataFrame(None, bool(_STREAM_READ.search(query)), query=query.strip().rstrip(";"))


# --- dbutils -------------------------------------------------------------------------------------------


class FileInfo:
    def __init__(self, path, name, size, modificationTime):
        self.path, self.name, self.size, self.modificationTime = path, name, size, modificationTime

    def isDir(self):
        return self.name.endswith("/")

    def isFile(self):
        return not self.isDir()

    def __repr__(self):
        return "FileInfo(path=%r, name=%r, size=%r, modificationTime=%r)" % (
            self.path, self.name, self.size, self.modificationTime)


def _volume_path(path):
    """The local folder of a /Volumes/<catalog>/<schema>/<volume>/... path; nothing outside the root."""
    logical = path[len("dbfs:"):] if path.startswith("dbfs:") else path
    if not logical.startswith("/Volumes/"):
        raise PipelineError("dbutils.fs.ls reads /Volumes/<catalog>/<schema>/<volume>/... paths, not %r" % path)
    if not _state.volumes_root:
        raise PipelineError("no folder holds the volumes of this run (the database's folder)")
    root = os.path.realpath(_state.volumes_root)
    local = os.path.realpath(os.path.join(root, logical.lstrip("/")))
    if local != root and not local.startswith(root + os.sep):
        raise PipelineError("%r lies outside the volumes folder" % path)
    return logical, local


class _Fs:
    def __getattr__(self, attr):
        raise PipelineError("dbutils.fs.%s is not supported by CDC Studio (it knows ls)" % attr)

    def ls(self, path):
        logical, local = _volume_path(path)
        if not os.path.exists(local):
            raise PipelineError("%s: no such file or directory (looked in %s)" % (path, local))
        if not os.path.isdir(local):
            entries = [(os.path.basename(local), local)]
            logical = os.path.dirname(logical.rstrip("/"))
        else:
            entries = [(n, os.path.join(local, n)) for n in sorted(os.listdir(local))]
        base = logical if logical.endswith("/") else logical + "/"
        out = []
        for name, full in entries:
            st = os.stat(full)
            is_dir = os.path.isdir(full)
            shown = name + ("/" if is_dir else "")
            out.append(FileInfo("dbfs:" + base + shown, shown, 0 if is_dir else st.st_size,
                                int(st.st_mtime * 1000)))
        return out


class _DbUtils:
    def __init__(self):
        self.__dict__["fs"] = _Fs()

    def __getattr__(self, attr):
        raise PipelineError("dbutils.%s is not supported by CDC Studio (it knows fs.ls)" % attr)


# --- the pipeline API: declarations --------------------------------------------------------------------


def _declare(kind, position, payload):
    _state.declarations.append((kind, position, payload))


def _names(value, what):
    if isinstance(value, (str, Column)):
        value = [value]
    if not isinstance(value, (list, tuple)):
        raise PipelineError("%s must be a list of column names" % what)
    out = []
    for v in value:
        name = v._name if isinstance(v, Column) else v
        if not isinstance(name, str):
            raise PipelineError("%s must name columns (\"name\" or col(\"name\")), not %r" % (what, v))
        out.append(_ident(name))
    return "(" + ", ".join(out) + ")"


def _scd_type(value):
    if str(value) not in ("1", "2"):
        raise PipelineError("stored_as_scd_type must be 1 or 2, not %r" % (value,))
    return " STORED AS SCD TYPE " + str(value)


def _track_history(column_list, except_column_list):
    if column_list is not None:
        return " TRACK HISTORY ON " + _names(column_list, "track_history_column_list")
    if except_column_list is not None:
        return " TRACK HISTORY ON * EXCEPT " + _names(except_column_list, "track_history_except_column_list")
    return ""


def _sequence(value):
    if isinstance(value, str):
        return _ident(value)
    if isinstance(value, Column):
        return value._sql
    raise PipelineError("sequence_by must be a column name, col(...), expr(...) or struct(...)")


def _table_options(comment, table_properties, schema):
    sql = ""
    if schema is not None:
        if not isinstance(schema, str):
            raise PipelineError("schema must be a DDL string such as \"id INT, name STRING\"")
        sql += " (" + schema + ")"
    if comment is not None:
        sql += " COMMENT " + _string(comment)
    if table_properties:
        sql += " TBLPROPERTIES (" + ", ".join(
            _string(k) + " = " + _string(str(v).lower() if isinstance(v, bool) else v)
            for k, v in table_properties.items()) + ")"
    return sql


def _flow_name(target):
    """A flow's default name: its target's, unqualified (a flow name has one part)."""
    if not isinstance(target, str):
        raise PipelineError("target must be a table name, got %r" % (target,))
    return target.split(".")[-1]


def create_streaming_table(name, comment=None, spark_conf=None, table_properties=None, path=None,
                           partition_cols=None, cluster_by_auto=None, cluster_by=None, schema=None,
                           expect_all=None, expect_all_or_drop=None, expect_all_or_fail=None,
                           row_filter=None, private=None):
    sql = "CREATE OR REFRESH STREAMING TABLE " + _ident(name) + _table_options(comment, table_properties, schema)
    _declare("sql", _caller(), sql)


def create_auto_cdc_flow(target, source, keys, sequence_by, system_sequence_by=None, ignore_null_updates=False,
                         ignore_null_updates_column_list=None, ignore_null_updates_except_column_list=None,
                         columns_to_update=None, apply_as_deletes=None, apply_as_truncates=None, column_list=None,
                         except_column_list=None, stored_as_scd_type="1", track_history_column_list=None,
                         track_history_except_column_list=None, name=None, once=False):
    if not isinstance(source, str):
        raise PipelineError("source must be the name of a table or view")
    # The clauses in the order AUTO CDC INTO takes them.
    sql = "CREATE FLOW " + _ident(name or _flow_name(target))
    sql += (" AS AUTO CDC ONCE INTO " if once else " AS AUTO CDC INTO ") + _ident(target)
    sql += " FROM " + (_ident(source) if once else "STREAM(" + _ident(source) + ")")
    sql += " KEYS " + _names(keys, "keys")
    if ignore_null_updates_column_list is not None:
        sql += " IGNORE NULL UPDATES ON " + _names(ignore_null_updates_column_list, "ignore_null_updates_column_list")
    elif ignore_null_updates_except_column_list is not None:
        sql += " IGNORE NULL UPDATES ON * EXCEPT " + _names(ignore_null_updates_except_column_list,
                                                            "ignore_null_updates_except_column_list")
    elif ignore_null_updates:
        sql += " IGNORE NULL UPDATES"
    if apply_as_deletes is not None:
        sql += " APPLY AS DELETE WHEN " + _condition(apply_as_deletes)
    if apply_as_truncates is not None:
        sql += " APPLY AS TRUNCATE WHEN " + _condition(apply_as_truncates)
    sql += " SEQUENCE BY " + _sequence(sequence_by)
    if system_sequence_by is not None:
        sql += " SYSTEM SEQUENCE BY " + _sequence(system_sequence_by)
    if column_list is not None:
        sql += " COLUMNS " + _names(column_list, "column_list")
    elif except_column_list is not None:
        sql += " COLUMNS * EXCEPT " + _names(except_column_list, "except_column_list")
    sql += " STORED AS BITEMPORAL" if str(stored_as_scd_type).lower() == "bitemporal" else _scd_type(stored_as_scd_type)
    sql += _track_history(track_history_column_list, track_history_except_column_list)
    if columns_to_update is not None:
        sql += " COLUMNS TO UPDATE " + _names(columns_to_update, "columns_to_update")[1:-1]
    _declare("sql", _caller(), sql)


def create_auto_cdc_from_snapshot_flow(target, source, keys, stored_as_scd_type=1,
                                       track_history_column_list=None, track_history_except_column_list=None,
                                       name=None, once=False):
    flow = name or _flow_name(target)
    head = "CREATE FLOW " + _ident(flow) + (" AS AUTO CDC ONCE INTO " if once else " AS AUTO CDC INTO ")
    head += _ident(target) + " FROM SNAPSHOT "
    tail = " KEYS " + _names(keys, "keys") + _scd_type(stored_as_scd_type)
    tail += _track_history(track_history_column_list, track_history_except_column_list)
    if isinstance(source, str):
        _declare("sql", _caller(), head + _ident(source) + tail)
    elif callable(source):
        _declare("snapshot_function", _caller(), (flow, source, head, tail))
    else:
        raise PipelineError("source must be a table or view name, or a function returning "
                            "(DataFrame, version) or None")


def _dataset(kind):
    def decorator(query_function=None, name=None, comment=None, spark_conf=None, table_properties=None,
                  path=None, partition_cols=None, cluster_by_auto=None, cluster_by=None, schema=None,
                  row_filter=None, temporary=None, private=None, format=None, refresh_policy=None):
        where = _caller()

        def register(function):
            if not callable(function):
                raise PipelineError("@%s decorates a function" % kind)
            options = _table_options(comment, table_properties, schema if kind != "view" else None)
            _declare("dataset", where, (kind, name or function.__name__, function, options))
            return function

        return register(query_function) if query_function is not None else register

    return decorator


def append_flow(target=None, name=None, spark_conf=None, comment=None, once=False):
    where = _caller()
    if not isinstance(target, str):
        raise PipelineError("@append_flow needs target=\"table\"")

    def register(function):
        _declare("append", where, (name or function.__name__, function, target, once))
        return function

    return register


def _legacy_apply_changes(*args, **kw):
    return create_auto_cdc_flow(*args, **kw)


def _read(name):
    return _table_read(name, False)


def _read_stream(name):
    return _table_read(name, True)


def _make_pipelines(module_name, legacy):
    m = types.ModuleType(module_name)
    m.create_streaming_table = create_streaming_table
    m.create_auto_cdc_flow = create_auto_cdc_flow
    m.create_auto_cdc_from_snapshot_flow = create_auto_cdc_from_snapshot_flow
    m.table = _dataset("table")
    m.materialized_view = _dataset("materialized_view")
    m.view = _dataset("view")
    m.temporary_view = _dataset("view")
    m.append_flow = append_flow
    m.read = _read
    m.read_stream = _read_stream
    if legacy:
        m.apply_changes = _legacy_apply_changes
        m.apply_changes_from_snapshot = create_auto_cdc_from_snapshot_flow
        m.create_target_table = create_streaming_table
        m.create_streaming_live_table = create_streaming_table
    m.__getattr__ = lambda name: _unsupported(module_name, name)
    return m


def _unsupported(module, name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise PipelineError("%s.%s is not supported by CDC Studio" % (module, name))


def _install_modules():
    spark = SparkSession()
    functions = _make_functions()
    pipelines = _make_pipelines("pyspark.pipelines", False)
    pyspark = types.ModuleType("pyspark")
    pyspark.__path__ = []
    sql = types.ModuleType("pyspark.sql")
    sql.__path__ = []
    sql.DataFrame, sql.Column, sql.SparkSession, sql.functions = DataFrame, Column, SparkSession, functions
    pyspark.pipelines, pyspark.sql = pipelines, sql
    for name, module in (("pyspark", pyspark), ("pyspark.sql", sql), ("pyspark.sql.functions", functions),
                         ("pyspark.pipelines", pipelines), ("dlt", _make_pipelines("dlt", True))):
        sys.modules[name] = module
    return spark


# --- the run -------------------------------------------------------------------------------------------


def _dataframe(value, what):
    if not isinstance(value, DataFrame):
        raise PipelineError("%s must return a DataFrame, not %s" % (what, type(value).__name__))
    return value


def _statements(evaluate_snapshot_functions):
    out = []
    for kind, (line, col), payload in _state.declarations:
        _state.current = (line, col)  # where an error with no frame in the file is shown
        if kind == "sql":
            sql = payload
        elif kind == "dataset":
            dataset, name, function, options = payload
            df = _dataframe(function(), "the function of @%s %s" % (dataset, name))
            if df._output_names() is not None:  # what later reads of this dataset stand for
                _state.tables[name.lower()] = df._output_names()
            if dataset == "view":
                sql = "CREATE TEMPORARY VIEW " + _ident(name) + options
            elif dataset == "table" and df.isStreaming:
                sql = "CREATE OR REFRESH STREAMING TABLE " + _ident(name) + options
            else:
                sql = "CREATE OR REFRESH MATERIALIZED VIEW " + _ident(name) + options
            sql += " AS " + df._sql()
        elif kind == "append":
            name, function, target, once = payload
            df = _dataframe(function(), "the function of @append_flow %s" % name)
            sql = "CREATE FLOW " + _ident(name) + (" AS INSERT INTO ONCE " if once else " AS INSERT INTO ")
            sql += _ident(target) + " BY NAME " + df._sql()
        elif kind == "snapshot_function":
            flow, function, head, tail = payload
            if not evaluate_snapshot_functions:
                continue
            offer = _offer(function, None)
            if offer is None:
                raise _Positioned(
                    "the snapshot function %s offers no snapshot yet (it returns None when no version was "
                    "processed): CDC Studio takes the target's columns from its first snapshot" %
                    function.__name__, line, col)
            df, version = offer
            sql = head + "(" + df._sql() + ") WITH VERSION (SELECT " + _literal(version) + " AS version LIMIT 0)"
            sql += tail
            out.append({"sql": sql, "line": line, "column": col, "flow": flow,
                        "snapshotFunction": function.__name__})
            continue
        out.append({"sql": sql, "line": line, "column": col})
    return out


class _Positioned(Exception):
    def __init__(self, message, line, col):
        Exception.__init__(self, message)
        self.line, self.col = line, col


def _offer(function, last_version):
    result = function(last_version)
    if result is None:
        return None
    if not isinstance(result, tuple) or len(result) != 2 or not isinstance(result[0], DataFrame):
        raise PipelineError("the snapshot function %s must return (DataFrame, version) or None, not %r" %
                            (function.__name__, result))
    version = result[1]
    if isinstance(version, bool) or not isinstance(version, (int, float, str)):
        raise PipelineError("the snapshot function %s returned a version of type %s; versions are int, float "
                            "or str" % (function.__name__, type(version).__name__))
    return result


def _run_file(source, file, volumes_root, tables=None):
    global _state
    _state = _State(file, volumes_root, tables)
    spark = _install_modules()
    globals_ = {"__name__": "__main__", "__file__": file, "__builtins__": __builtins__, "spark": spark,
                "dbutils": _DbUtils()}
    code = compile(source, file, "exec")
    exec(code, globals_)


def _failure(exc):
    if isinstance(exc, SyntaxError) and exc.filename == _state_file():
        message = "%s: %s" % (type(exc).__name__, exc.msg)
        return {"ok": False, "message": message, "line": exc.lineno or 0, "column": exc.offset or 0,
                "code": "PYTHON_SYNTAX"}
    if isinstance(exc, _Positioned):
        return {"ok": False, "message": str(exc), "line": exc.line, "column": exc.col, "code": "PYTHON"}
    where = (_error_position(exc) or _state.current) if _state is not None else None
    if isinstance(exc, PipelineError):
        message, code = str(exc), "PYTHON_API"
    else:
        message, code = "%s: %s" % (type(exc).__name__, exc), "PYTHON_EXCEPTION"
    line, col = where if where else (0, 0)
    return {"ok": False, "message": message, "line": line, "column": col, "code": code}


def _state_file():
    return _state.file if _state is not None else None


def record(source, file, volumes_root, tables=None):
    """Runs the file; the pipeline SQL of every declaration, in order."""
    try:
        _run_file(source, file, volumes_root, tables)
        return {"ok": True, "statements": _statements(True)}
    except BaseException as exc:  # the user's code may raise anything, SystemExit included
        return _failure(exc)


def call_snapshot_function(source, file, volumes_root, flow, last_version, tables=None):
    """Runs the file again and calls the snapshot function of `flow` with the last processed version."""
    try:
        _run_file(source, file, volumes_root, tables)
        for kind, (line, col), payload in _state.declarations:
            if kind == "snapshot_function" and payload[0].lower() == flow.lower():
                _state.current = (line, col)
                offer = _offer(payload[1], last_version)
                if offer is None:
                    return {"ok": True, "offer": None}
                df, version = offer
                line, col = df._where
                return {"ok": True, "offer": {"sql": df._sql(), "version": version, "line": line,
                                              "column": col}}
        return {"ok": False, "message": "the file no longer declares the snapshot flow %s" % flow, "line": 0,
                "column": 0, "code": "PYTHON"}
    except BaseException as exc:
        return _failure(exc)


def main(request_text):
    """The worker's one request (JSON text) to its reply (JSON text)."""
    import json
    request = json.loads(request_text)
    source, file, root = request["source"], request["file"], request.get("volumesRoot", "")
    tables = request.get("tables") or {}
    try:
        if request.get("mode") == "snapshot":
            reply = call_snapshot_function(source, file, root, request["flow"], request.get("lastVersion"),
                                           tables)
        else:
            reply = record(source, file, root, tables)
    finally:
        # The worker ends without finalizing the interpreter: what the file printed must be out first.
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # the file may have closed or replaced them
                pass
    try:
        return json.dumps(reply)
    except (TypeError, ValueError) as exc:
        return json.dumps({"ok": False, "message": "the pipeline's answer cannot be sent: %s" % exc, "line": 0,
                           "column": 0, "code": "PYTHON"})
