// Matching by identity, first come first served: a second predicted row of an identity already claimed is
// extra, so a duplicated guess cannot count twice.
#include "core/engine/PredictionGrade.h"

#include "core/common/ResultSet.h"
#include "core/common/Text.h"

#include <algorithm>
#include <map>

namespace cdc::engine {

namespace {

Row identityOf(const Row& row, const std::vector<std::size_t>& identity) {
    Row out;
    out.reserve(identity.size());
    for (std::size_t c : identity)
        out.push_back(c < row.size() ? row[c] : Value{});
    return out;
}

std::string plural(int n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

/// The column's index among the explanation's columns, or -1.
int columnOf(const Explanation& e, const std::string& column) {
    for (std::size_t c = 0; c < e.columns.size(); ++c)
        if (equalsIgnoreCase(e.columns[c], column))
            return static_cast<int>(c);
    return -1;
}

std::string eventLabel(const ExplainedEvent& ev) {
    return "sequence " + displayText(ev.sequence) + " (update " + std::to_string(ev.update) + ")";
}

/// "sequence 5 (update 7): opened the version [5, 6); ..." for the event that opened the SCD2 version
/// starting at `start`, or empty.
std::string versionOrigin(const Explanation& key, const std::optional<Value>& start) {
    if (!key.scd2 || !start)
        return {};
    for (const ExplainedEvent& ev : key.events)
        if (!ev.isDelete && ev.sequence == *start)
            return eventLabel(ev) + ": " + ev.why;
    return {};
}

} // namespace

bool GradedRow::allRight() const {
    return !extra() && std::all_of(right.begin(), right.end(), [](bool r) { return r; });
}

int PredictionGrade::extraRows() const {
    return static_cast<int>(
        std::count_if(rows.begin(), rows.end(), [](const GradedRow& r) { return r.extra(); }));
}

PredictionGrade gradePrediction(const std::vector<Row>& predicted, const std::vector<Row>& actual,
                                const std::vector<std::size_t>& identity) {
    // Value's ordering is the variant's: a total order, which is all a lookup needs.
    std::map<Row, int> unclaimed;
    for (std::size_t a = 0; a < actual.size(); ++a)
        unclaimed.emplace(identityOf(actual[a], identity), static_cast<int>(a));
    PredictionGrade grade;
    for (const Row& row : predicted) {
        GradedRow graded;
        const auto found = unclaimed.find(identityOf(row, identity));
        if (found == unclaimed.end()) {
            graded.right.assign(row.size(), false);
            grade.rows.push_back(std::move(graded));
            continue;
        }
        graded.actual = found->second;
        unclaimed.erase(found);
        const Row& truth = actual[static_cast<std::size_t>(graded.actual)];
        for (std::size_t c = 0; c < row.size(); ++c) {
            const bool right = c < truth.size() && row[c] == truth[c];
            graded.right.push_back(right);
            (right ? grade.rightCells : grade.wrongCells) += 1;
        }
        grade.rows.push_back(std::move(graded));
    }
    for (const auto& [id, a] : unclaimed)
        grade.missing.push_back(a);
    std::sort(grade.missing.begin(), grade.missing.end());
    return grade;
}

std::string gradeSummary(const PredictionGrade& grade) {
    const int cells = grade.rightCells + grade.wrongCells;
    std::string s = grade.perfect()
                        ? "Every cell right: " + std::to_string(cells) + " of " + std::to_string(cells)
                        : std::to_string(grade.rightCells) + " of " + std::to_string(cells);
    s += " cells right";
    if (!grade.missing.empty())
        s += ", " + plural(static_cast<int>(grade.missing.size()), "row missing", "rows missing");
    if (const int extra = grade.extraRows(); extra > 0)
        s += ", " + plural(extra, "extra row", "extra rows");
    return s;
}

std::string explainWrongCell(const Explanation& key, const std::string& column, const Value& predicted,
                             const Value& actual, const std::optional<DataType>& type,
                             const std::optional<Value>& versionStart) {
    std::string s =
        column + ": you said " + displayValue(predicted, type) + ", it is " + displayValue(actual, type);
    std::vector<std::string> reasons;
    const int at = columnOf(key, column);
    int setBy = -1;
    // SCD1: the live row's origins name the event that set the value.
    for (const ColumnOrigin& origin : key.current)
        if (equalsIgnoreCase(origin.column, column) && origin.value == actual)
            setBy = origin.event;
    if (setBy >= 0)
        reasons.push_back("set by " + eventLabel(key.events[static_cast<std::size_t>(setBy)]));
    if (std::string origin = versionOrigin(key, versionStart); !origin.empty())
        reasons.push_back(std::move(origin));
    // The event the guess came from: the newest one carrying the predicted value, and what became of it.
    if (at >= 0)
        for (auto ev = key.events.rbegin(); ev != key.events.rend(); ++ev) {
            const auto c = static_cast<std::size_t>(at);
            if (ev->isDelete || c >= ev->values.size() || ev->values[c] != predicted ||
                static_cast<int>(key.events.rend() - ev - 1) == setBy)
                continue;
            reasons.push_back("the event with " + displayValue(predicted, type) + " (" + eventLabel(*ev) +
                              ") is " + fateName(ev->fate) + ": " + ev->why);
            break;
        }
    if (reasons.empty())
        reasons.push_back(key.summary);
    s += " — ";
    for (std::size_t r = 0; r < reasons.size(); ++r)
        s += (r ? "; " : "") + reasons[r];
    return s;
}

std::string explainRow(const Explanation& key, bool missing, const std::optional<Value>& versionStart) {
    std::string origin = versionOrigin(key, versionStart);
    return std::string(missing ? "missing from your prediction" : "not in the table") + " — " +
           (origin.empty() ? key.summary : origin);
}

} // namespace cdc::engine
