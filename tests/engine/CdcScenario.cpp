// Values are drawn where an engine goes wrong rather than uniformly: BIGINTs past 2^53, strings whose
// byte order is not the natural one, NULL STRUCT fields, timestamps in every spelling and offset, ties and
// NULLs. Sequences are made as typed fields and only then written as literals, so the model reads no SQL.
#include "CdcScenario.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <functional>
#include <map>
#include <numeric>
#include <set>

namespace enginetest {

namespace {

std::string joined(const std::vector<std::string>& parts, const std::string& sep = ", ") {
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i)
        out += (i ? sep : "") + parts[i];
    return out;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

/// Proleptic Gregorian date of a day count from 1970-01-01 (H. Hinnant's civil_from_days).
std::string dateText(std::int64_t days) {
    days += 719468;
    const std::int64_t era = (days >= 0 ? days : days - 146096) / 146097;
    const std::int64_t doe = days - era * 146097;
    const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const std::int64_t mp = (5 * doy + 2) / 153;
    const std::int64_t d = doy - (153 * mp + 2) / 5 + 1;
    const std::int64_t m = mp < 10 ? mp + 3 : mp - 9;
    const std::int64_t y = yoe + era * 400 + (m <= 2);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04lld-%02lld-%02lld", static_cast<long long>(y),
                  static_cast<long long>(m), static_cast<long long>(d));
    return buf;
}

std::int64_t floorDiv(std::int64_t a, std::int64_t b) {
    return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

constexpr std::int64_t kDay2024 = 19723; // 2024-01-01 as days since the epoch
constexpr std::int64_t kMicrosPerSecond = 1'000'000;

/// A TIMESTAMP literal for an instant (microseconds since 2024-01-01 UTC), in one of the spellings
/// users write: space or T, fractions of 0, 3 or 6 digits, Z or a +02:00 / -05:30 offset.
std::string timestampLiteral(std::int64_t micros, int style) {
    static const int offsetsMinutes[] = {0, 0, 120, -330};
    const int offset = offsetsMinutes[style % 4];
    const std::int64_t local = micros + std::int64_t{offset} * 60 * kMicrosPerSecond;
    const std::int64_t seconds = floorDiv(local, kMicrosPerSecond);
    const std::int64_t fraction = local - seconds * kMicrosPerSecond;
    const std::int64_t day = floorDiv(seconds, 86400);
    const std::int64_t sod = seconds - day * 86400;
    char clock[80];
    std::snprintf(clock, sizeof clock, "%02lld:%02lld:%02lld", static_cast<long long>(sod / 3600),
                  static_cast<long long>(sod / 60 % 60), static_cast<long long>(sod % 60));
    std::string text = dateText(kDay2024 + day) + (style % 2 ? "T" : " ") + clock;
    if (fraction) {
        char frac[32];
        std::snprintf(frac, sizeof frac, ".%06lld", static_cast<long long>(fraction));
        text += frac;
    }
    if (style % 4 == 1)
        text += "Z";
    else if (offset)
        text += offset > 0 ? "+02:00" : "-05:30";
    return "TIMESTAMP'" + text + "'";
}

std::string quoted(const std::string& s) {
    return "'" + s + "'";
}

} // namespace

bool ColumnChoice::chooses(const std::string& name) const {
    return mode == Mode::All || (mode == Mode::Only) == contains(names, name);
}

std::string ColumnChoice::sql() const {
    if (mode == Mode::All)
        return "";
    return (mode == Mode::Except ? "* EXCEPT (" : "(") + joined(names) + ")";
}

std::vector<std::string> ScenarioShape::keyColumns() const {
    return compositeKey ? std::vector<std::string>{"k", "r"} : std::vector<std::string>{"k"};
}

std::vector<std::string> ScenarioShape::sequenceColumns() const {
    const bool isStruct =
        sequence == SequenceKind::StructBigIntString || sequence == SequenceKind::StructDateInt;
    return isStruct ? std::vector<std::string>{"s1", "s2"} : std::vector<std::string>{"s"};
}

std::vector<ScenarioColumn> ScenarioShape::sourceColumns() const {
    std::vector<ScenarioColumn> out{{"k", "INT"}};
    if (compositeKey)
        out.push_back({"r", "STRING"});
    for (const std::string& v : valueColumns)
        out.push_back({v, v == "a" ? "STRING" : v == "b" ? "BIGINT" : "DOUBLE"});
    out.push_back({"op", "STRING"});
    switch (sequence) {
    case SequenceKind::Int:
        out.push_back({"s", "INT"});
        break;
    case SequenceKind::BigInt:
        out.push_back({"s", "BIGINT"});
        break;
    case SequenceKind::Double:
        out.push_back({"s", "DOUBLE"});
        break;
    case SequenceKind::String:
        out.push_back({"s", "STRING"});
        break;
    case SequenceKind::Date:
        out.push_back({"s", "DATE"});
        break;
    case SequenceKind::Timestamp:
        out.push_back({"s", "TIMESTAMP"});
        break;
    case SequenceKind::StructBigIntString:
        out.insert(out.end(), {{"s1", "BIGINT"}, {"s2", "STRING"}});
        break;
    case SequenceKind::StructDateInt:
        out.insert(out.end(), {{"s1", "DATE"}, {"s2", "INT"}});
        break;
    }
    if (hasColumnsToUpdateColumn)
        out.push_back({"cu", "ARRAY<STRING>"});
    return out;
}

std::vector<std::string> ScenarioShape::targetColumns() const {
    if (columns.mode == ColumnChoice::Mode::Only)
        return columns.names;
    std::vector<std::string> out;
    for (const ScenarioColumn& c : sourceColumns())
        if (columns.chooses(c.name))
            out.push_back(c.name);
    return out;
}

std::string Scenario::pipelineSql() const {
    const ScenarioShape& sh = shape;
    std::string table = "CREATE OR REFRESH STREAMING TABLE t";
    if (sh.gcThresholdSeconds)
        table += "\n  TBLPROPERTIES ('pipelines.cdc.tombstoneGCThresholdInSeconds' = '" +
                 std::to_string(*sh.gcThresholdSeconds) + "')";
    std::string out = sh.syntax == 1 ? "" : table + ";\n\n";
    for (std::size_t i = 0; i < sh.flows.size(); ++i) {
        const FlowShape& f = sh.flows[i];
        const std::string src = f.once ? "src" + std::to_string(i) : "STREAM(src" + std::to_string(i) + ")";
        if (sh.syntax == 1)
            out += table + "\nFLOW AUTO CDC\nFROM " + src;
        else if (sh.syntax == 2)
            out += "APPLY CHANGES INTO t\nFROM " + src;
        else
            out += "CREATE FLOW f" + std::to_string(i) + " AS AUTO CDC" + (f.once ? " ONCE" : "") +
                   " INTO t\nFROM " + src;
        out += "\nKEYS (" + joined(sh.keyColumns()) + ")";
        if (f.ignoreNull)
            out += "\nIGNORE NULL UPDATES" +
                   (f.ignoreNull->mode == ColumnChoice::Mode::All ? "" : " ON " + f.ignoreNull->sql());
        if (f.deletes)
            out += "\nAPPLY AS DELETE WHEN op = 'D'";
        if (f.truncates)
            out += "\nAPPLY AS TRUNCATE WHEN op = 'T'";
        const auto seq = sh.sequenceColumns();
        out += "\nSEQUENCE BY " + (seq.size() > 1 ? "STRUCT(" + joined(seq) + ")" : seq[0]);
        out += "\nCOLUMNS " + sh.columns.sql();
        out += "\nSTORED AS SCD TYPE " + std::to_string(sh.scdType);
        if (sh.trackHistory)
            out += "\nTRACK HISTORY ON " + sh.trackHistory->sql();
        if (f.columnsToUpdate)
            out += "\nCOLUMNS TO UPDATE cu";
        out += ";\n\n";
    }
    return out;
}

std::string Scenario::createSourcesSql() const {
    std::vector<std::string> cols;
    for (const ScenarioColumn& c : shape.sourceColumns())
        cols.push_back(c.name + " " + c.type);
    std::string out;
    for (std::size_t i = 0; i < shape.flows.size(); ++i)
        out += "CREATE TABLE src" + std::to_string(i) + " (" + joined(cols) + ");\n";
    return out;
}

std::string Scenario::insertSql(const std::vector<int>& ids) const {
    std::map<int, std::vector<std::string>> rowsBySource;
    for (int id : ids) {
        const SourceEvent& e = events[static_cast<std::size_t>(id)];
        std::vector<std::string> cells{e.k ? std::to_string(*e.k) : "NULL"};
        if (shape.compositeKey)
            cells.push_back(quoted(e.r));
        for (const auto& v : e.values)
            cells.push_back(v.value_or("NULL"));
        cells.push_back(e.op ? quoted(*e.op) : "NULL");
        cells.insert(cells.end(), e.sequenceLiterals.begin(), e.sequenceLiterals.end());
        if (shape.hasColumnsToUpdateColumn) {
            std::vector<std::string> names;
            if (e.columnsToUpdate)
                for (const std::string& n : *e.columnsToUpdate)
                    names.push_back(quoted(n));
            cells.push_back(e.columnsToUpdate ? "array(" + joined(names) + ")" : "NULL");
        }
        rowsBySource[e.source].push_back("(" + joined(cells) + ")");
    }
    std::string out;
    for (const auto& [source, rows] : rowsBySource)
        out += "INSERT INTO src" + std::to_string(source) + " VALUES\n  " + joined(rows, ",\n  ") + ";\n";
    return out;
}

bool Scenario::orderIndependent(const Delivery& d, Scd2Deletes scd2Deletes) const {
    if (arrivalDecidesTies)
        return false;
    for (const FlowShape& f : shape.flows)
        if (f.once || (shape.scdType == 1 && (f.ignoreNull || f.columnsToUpdate)))
            return false; // a ONCE flow reads what arrived by its update; §5.1.3
    if (d.empty() || (shape.scdType == 2 && scd2Deletes == Scd2Deletes::KeptForever))
        return true;
    return d.back().now - d.front().now < shape.gcThreshold(); // nothing can be collected
}

// ---- generation ----

ScenarioShape ScenarioGenerator::shape() {
    ScenarioShape sh;
    sh.scdType = chance(50) ? 1 : 2;
    sh.compositeKey = chance(25);
    sh.sequence = static_cast<SequenceKind>(pick(0, 7));
    for (const char* v : {"a", "b", "c"})
        if (chance(65))
            sh.valueColumns.push_back(v);
    if (sh.valueColumns.empty())
        sh.valueColumns.push_back("a");
    sh.hasColumnsToUpdateColumn = chance(25);

    // COLUMNS: * EXCEPT (op[, cu][, the sequence]) or an explicit list of keys and some values.
    if (chance(70)) {
        sh.columns.mode = ColumnChoice::Mode::Except;
        sh.columns.names = {"op"};
        if (sh.hasColumnsToUpdateColumn)
            sh.columns.names.push_back("cu");
        if (chance(75))
            for (const std::string& s : sh.sequenceColumns())
                sh.columns.names.push_back(s);
    } else {
        sh.columns.mode = ColumnChoice::Mode::Only;
        sh.columns.names = sh.keyColumns();
        for (const std::string& v : sh.valueColumns)
            if (chance(70))
                sh.columns.names.push_back(v);
        if (chance(20))
            sh.columns.names.push_back(sh.sequenceColumns()[0]);
        std::shuffle(sh.columns.names.begin(), sh.columns.names.end(), m_rng);
    }
    std::vector<std::string> targetValues;
    for (const std::string& c : sh.targetColumns())
        if (!contains(sh.keyColumns(), c))
            targetValues.push_back(c);
    const auto someOf = [&](const std::vector<std::string>& from) {
        std::vector<std::string> out;
        for (const std::string& c : from)
            if (chance(50))
                out.push_back(c);
        if (out.empty() && !from.empty())
            out.push_back(from[static_cast<std::size_t>(pick(0, static_cast<int>(from.size()) - 1))]);
        return out;
    };

    if (sh.scdType == 2 && !targetValues.empty() && chance(35)) {
        ColumnChoice th;
        th.mode = chance(50) ? ColumnChoice::Mode::Only : ColumnChoice::Mode::Except;
        th.names = someOf(targetValues);
        if (th.mode == ColumnChoice::Mode::Except && !sh.columns.chooses("op") && chance(30))
            th.names.push_back("op"); // decision 10: accepted with a warning
        sh.trackHistory = th;
    }
    if (chance(50)) {
        static const std::int64_t thresholds[] = {1, 5, 60, 3600};
        sh.gcThresholdSeconds = thresholds[pick(0, 3)];
    }

    const int flows = chance(25) ? 2 : 1;
    for (int i = 0; i < flows; ++i) {
        FlowShape f;
        f.deletes = chance(85);
        f.truncates = sh.scdType == 1 && chance(30);
        f.columnsToUpdate = sh.hasColumnsToUpdateColumn && chance(70);
        if (!f.columnsToUpdate && !targetValues.empty() && chance(35)) {
            ColumnChoice in;
            in.mode = static_cast<ColumnChoice::Mode>(pick(0, 2));
            if (in.mode != ColumnChoice::Mode::All)
                in.names = someOf(targetValues);
            f.ignoreNull = in;
        }
        f.once = i == 0 && chance(flows == 2 ? 25 : 5);
        if (sh.scdType == 2 && i > 0) {
            // Known engine gap (tst_engine_property's partialFlowsIntoOneScd2Target, expected to fail):
            // SCD2 replays every stored event with the rules of the flow being applied.
            f.ignoreNull = sh.flows[0].ignoreNull;
            f.columnsToUpdate = sh.flows[0].columnsToUpdate;
        }
        sh.flows.push_back(f);
    }
    const FlowShape& only = sh.flows[0];
    const bool legacyFits =
        !only.columnsToUpdate && (!only.ignoreNull || only.ignoreNull->mode == ColumnChoice::Mode::All);
    sh.syntax = flows == 1 && !only.once ? pick(0, legacyFits ? 2 : 1) : 0;
    return sh;
}

std::vector<std::vector<SequenceField>> ScenarioGenerator::sequences(SequenceKind kind, int count) {
    std::set<std::vector<SequenceField>> seen;
    std::vector<std::vector<SequenceField>> out;
    const auto text = [&](const char* alphabet, int maxLength) {
        std::string s;
        const int length = pick(1, maxLength);
        for (int i = 0; i < length; ++i)
            s += alphabet[pick(0, static_cast<int>(std::char_traits<char>::length(alphabet)) - 1)];
        return s;
    };
    // Past 2^53 neighbouring BIGINTs share a double: an order that goes through REAL loses them.
    const auto bigint = [&]() -> std::int64_t {
        const std::int64_t base =
            chance(50) ? std::int64_t{pick(-3, 3)} * 1'000'000'000'000 : std::int64_t{1} << 62;
        return (chance(50) ? base : -base) + pick(-60, 60);
    };
    // A STRUCT's second field is sometimes NULL: it sorts first, and only a NULL STRUCT is a NULL sequence.
    const auto nullOr = [&](SequenceField v) { return chance(10) ? SequenceField{} : v; };
    while (static_cast<int>(out.size()) < count) {
        std::vector<SequenceField> v;
        switch (kind) {
        case SequenceKind::Int:
            v = {std::int64_t{pick(-30, 70)}};
            break;
        case SequenceKind::BigInt:
            v = {bigint()};
            break;
        case SequenceKind::Double:
            v = {pick(-160, 160) * 0.25};
            break;
        case SequenceKind::String: // '10' < '9', 'B' < 'a': bytes
            v = {text("019abB", 3)};
            break;
        case SequenceKind::Date:
            v = {std::int64_t{pick(-800, 800)}};
            break;
        case SequenceKind::Timestamp:
            v = {std::int64_t{pick(-200000, 200000)} * kMicrosPerSecond + (chance(40) ? pick(0, 999999) : 0)};
            break;
        case SequenceKind::StructBigIntString:
            v = {chance(70) ? std::int64_t{pick(-2, 3)} : bigint(), nullOr(text("19ab", 2))};
            break;
        case SequenceKind::StructDateInt:
            v = {std::int64_t{pick(0, 3)}, nullOr(std::int64_t{pick(-5, 20)})};
            break;
        }
        if (seen.insert(v).second)
            out.push_back(v);
    }
    return out;
}

std::vector<std::string> ScenarioGenerator::literals(SequenceKind kind, const std::vector<SequenceField>& f) {
    const auto integer = [&](std::size_t i) { return std::to_string(std::get<std::int64_t>(f[i])); };
    const auto date = [&](std::size_t i) {
        return "DATE'" + dateText(kDay2024 + std::get<std::int64_t>(f[i])) + "'";
    };
    const auto orNull = [&](std::size_t i, const std::function<std::string(std::size_t)>& literal) {
        return std::holds_alternative<std::monostate>(f[i]) ? std::string("NULL") : literal(i);
    };
    const auto text = [&](std::size_t i) { return quoted(std::get<std::string>(f[i])); };
    switch (kind) {
    case SequenceKind::Int:
    case SequenceKind::BigInt:
        return {integer(0)};
    case SequenceKind::Double: {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.2f", std::get<double>(f[0]));
        return {buf};
    }
    case SequenceKind::String:
        return {text(0)};
    case SequenceKind::Date:
        return {date(0)};
    case SequenceKind::Timestamp:
        return {timestampLiteral(std::get<std::int64_t>(f[0]), pick(0, 3))};
    case SequenceKind::StructBigIntString:
        return {integer(0), orNull(1, text)};
    case SequenceKind::StructDateInt:
        return {date(0), orNull(1, integer)};
    }
    return {};
}

std::vector<SourceEvent> ScenarioGenerator::events(const ScenarioShape& sh, bool& arrivalDecidesTies) {
    const int sizeClass = pick(0, 99);
    const int n = sizeClass < 40 ? pick(1, 14) : sizeClass < 75 ? pick(15, 40) : pick(41, 80);
    const int keys = pick(1, 12);
    const int nullRate = std::array{0, 15, 40}[static_cast<std::size_t>(pick(0, 2))];
    const int disorder = std::array{0, 20, 100}[static_cast<std::size_t>(pick(0, 2))];
    const int tieRate = chance(40) ? 20 : 0;
    std::vector<std::string> targetValues;
    for (const std::string& c : sh.targetColumns())
        if (!contains(sh.keyColumns(), c))
            targetValues.push_back(c);
    const auto valueLiteral = [&](const std::string& column) -> std::optional<std::string> {
        if (chance(nullRate))
            return std::nullopt;
        static const char* strings[] = {"'x'", "'y'", "'zz'"};
        static const char* bigints[] = {"-1", "0", "7"};
        static const char* doubles[] = {"-2.5", "0.5", "1.0"};
        const int i = pick(0, 2);
        return column == "a" ? strings[i] : column == "b" ? bigints[i] : doubles[i];
    };
    const auto kindOf = [&](const SourceEvent& e) {
        const FlowShape& f = sh.flows[static_cast<std::size_t>(e.source)];
        if (f.truncates && e.op == "T")
            return EventKind::Truncate;
        return f.deletes && e.op == "D" ? EventKind::Delete : EventKind::Upsert;
    };

    std::vector<SourceEvent> out;
    for (int i = 0; i < n; ++i) {
        SourceEvent e;
        e.id = i;
        e.source = pick(0, static_cast<int>(sh.flows.size()) - 1);
        const FlowShape& f = sh.flows[static_cast<std::size_t>(e.source)];
        const int key = pick(0, keys - 1);
        e.k = key * 7 - 20;
        e.r = sh.compositeKey && chance(50) ? "q" : "p";
        const int op = pick(0, 99);
        e.op = f.truncates && op < 4 ? std::optional<std::string>("T")
               : op < 28             ? std::optional<std::string>("D")
               : op < 38             ? std::nullopt // decision 12: a NULL condition makes an upsert
                                     : std::optional<std::string>(chance(50) ? "U" : "I");
        const EventKind kind = kindOf(e);
        if (kind == EventKind::Truncate && chance(50))
            e.k.reset(); // decision 11
        for (const std::string& v : sh.valueColumns)
            e.values.push_back(kind == EventKind::Upsert || chance(20) ? valueLiteral(v) : std::nullopt);
        if (sh.hasColumnsToUpdateColumn &&
            (kind == EventKind::Upsert ? f.columnsToUpdate || chance(70) : chance(30))) {
            std::vector<std::string> listed;
            for (const std::string& c : targetValues)
                if (chance(55))
                    listed.push_back(c);
            e.columnsToUpdate = listed;
        }
        out.push_back(std::move(e));
    }

    // Sequences: distinct per key (a truncate draws its own), in arrival order unless disordered.
    std::map<std::pair<std::optional<std::int64_t>, std::string>, std::vector<std::size_t>> byKey;
    for (std::size_t i = 0; i < out.size(); ++i)
        if (kindOf(out[i]) != EventKind::Truncate)
            byKey[{out[i].k, out[i].r}].push_back(i);
    std::vector<std::vector<SequenceField>> all;
    for (auto& [key, idx] : byKey) {
        auto seqs = sequences(sh.sequence, static_cast<int>(idx.size()));
        std::sort(seqs.begin(), seqs.end());
        for (std::size_t j = 0; j < idx.size(); ++j) {
            std::size_t from = j;
            if (chance(disorder))
                from = static_cast<std::size_t>(pick(0, static_cast<int>(idx.size()) - 1));
            std::swap(seqs[j], seqs[from]);
        }
        for (std::size_t j = 0; j < idx.size(); ++j)
            out[idx[j]].sequence = seqs[j];
        // Decided ties (decision 2): an upsert and a delete, or two upserts; never two deletes.
        for (std::size_t j = 1; j < idx.size(); ++j) {
            if (!chance(tieRate))
                continue;
            SourceEvent& tied = out[idx[j]];
            const SourceEvent& other = out[idx[static_cast<std::size_t>(pick(0, static_cast<int>(j) - 1))]];
            const bool tiedUpsert = kindOf(tied) == EventKind::Upsert,
                       otherUpsert = kindOf(other) == EventKind::Upsert;
            if (!tiedUpsert && !otherUpsert)
                continue;
            tied.sequence = other.sequence;
            if (tiedUpsert && otherUpsert) {
                if (chance(50) && tied.source == other.source) {
                    tied.values = other.values; // an exact replay decides nothing
                    tied.op = other.op;
                    tied.columnsToUpdate = other.columnsToUpdate;
                } else {
                    arrivalDecidesTies = true;
                }
            }
        }
        for (std::size_t j : idx)
            all.push_back(out[j].sequence);
    }
    for (SourceEvent& e : out) {
        if (kindOf(e) == EventKind::Truncate)
            e.sequence = all.empty() || chance(50)
                             ? sequences(sh.sequence, 1)[0]
                             : all[static_cast<std::size_t>(pick(0, static_cast<int>(all.size()) - 1))];
        e.sequenceLiterals = literals(sh.sequence, e.sequence);
    }
    return out;
}

Delivery ScenarioGenerator::deliver(const ScenarioShape& sh, std::vector<int> order, bool withRefresh) {
    const int n = static_cast<int>(order.size());
    const int updates = n == 0 ? 1 : pick(1, std::min(6, n));
    std::vector<int> cuts;
    for (int u = 1; u < updates; ++u)
        cuts.push_back(pick(0, n));
    cuts.push_back(n);
    std::sort(cuts.begin(), cuts.end());
    const std::int64_t threshold = sh.gcThreshold();
    // Clock steps around the GC threshold, so tombstones expire on the boundary and either side of it.
    const std::int64_t steps[] = {0, 1, threshold - 1, threshold, threshold + 1, 2 * threshold};
    Delivery out;
    std::int64_t now = 1'700'000'000;
    int from = 0;
    for (int u = 0; u < updates; ++u) {
        UpdateStep step;
        if (u > 0)
            now += chance(50) ? steps[pick(0, 5)]
                              : pick(0, static_cast<int>(std::min<std::int64_t>(threshold * 2, 1 << 20)));
        step.now = now;
        step.fullRefresh = withRefresh && u > 0 && chance(25);
        for (; from < cuts[static_cast<std::size_t>(u)]; ++from)
            step.events.push_back(order[static_cast<std::size_t>(from)]);
        out.push_back(std::move(step));
    }
    return out;
}

Scenario ScenarioGenerator::next() {
    Scenario s;
    s.shape = shape();
    s.events = events(s.shape, s.arrivalDecidesTies);
    std::vector<int> order(s.events.size());
    std::iota(order.begin(), order.end(), 0);
    s.delivery = deliver(s.shape, order, chance(15));
    return s;
}

Delivery ScenarioGenerator::sorted(const Scenario& s) {
    std::vector<int> order(s.events.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const SourceEvent &x = s.events[static_cast<std::size_t>(a)],
                          &y = s.events[static_cast<std::size_t>(b)];
        return std::tie(x.source, x.k, x.r, x.sequence) < std::tie(y.source, y.k, y.r, y.sequence);
    });
    return {UpdateStep{1'700'000'000, false, order}};
}

Delivery ScenarioGenerator::shuffled(const Scenario& s) {
    std::vector<int> order(s.events.size());
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), m_rng);
    return deliver(s.shape, order, chance(30));
}

} // namespace enginetest
