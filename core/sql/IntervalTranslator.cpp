// Date and timestamp arithmetic: `value ± INTERVAL ...`, add_months and timestampadd / dateadd, all run by
// spark_add_interval (SparkFunctions.cpp over SparkTimestamp::plus): months first with the day clamped to
// the month's end, then days, then microseconds, as Spark adds a CalendarInterval. A DATE stays a DATE when
// the interval has no time part (Spark's DateAddInterval), else the result is a TIMESTAMP.
// References: Databricks SQL "INTERVAL type" and "Arithmetic operators" (date + interval), "add_months"
// (2016-08-31 + 1 month = 2016-09-30), "timestampadd" / "dateadd" (a TIMESTAMP; 2022-03-31 - 1 MONTH =
// 2022-02-28): docs.databricks.com/sql/language-manual/data-types/interval-type.html,
// functions/add_months.html, functions/timestampadd.html.
#include "core/sql/Printer.h"
#include "core/sql/Translator.h"

#include <cctype>
#include <cmath>
#include <cstdlib>

namespace cdc::sql {

namespace {

struct UnitSize {
    std::string_view unit;
    std::int64_t months;
    std::int64_t days;
    std::int64_t micros;
};

constexpr std::int64_t kMicrosPerSecond = 1000000;
constexpr UnitSize kUnits[] = {
    {"YEAR", 12, 0, 0},
    {"QUARTER", 3, 0, 0},
    {"MONTH", 1, 0, 0},
    {"WEEK", 0, 7, 0},
    {"DAY", 0, 1, 0},
    {"DAYOFYEAR", 0, 1, 0},
    {"HOUR", 0, 0, 3600 * kMicrosPerSecond},
    {"MINUTE", 0, 0, 60 * kMicrosPerSecond},
    {"SECOND", 0, 0, kMicrosPerSecond},
    {"MILLISECOND", 0, 0, 1000},
    {"MICROSECOND", 0, 0, 1},
};

const UnitSize* unitSize(std::string_view unit) {
    for (const auto& u : kUnits)
        if (u.unit == unit)
            return &u;
    return nullptr;
}

} // namespace

bool Translator::intervalParts(const Expr& interval, std::int64_t& months, std::int64_t& days,
                               std::int64_t& micros) {
    months = days = micros = 0;
    const std::vector<std::string> units = intervalUnits(interval);
    for (std::size_t i = 0; i < interval.args.size() && i < units.size(); ++i) {
        const Expr& value = interval.args[i];
        const UnitSize* size = unitSize(units[i]);
        char* end = nullptr;
        const double number = std::strtod(value.text.c_str(), &end);
        if (!size || value.text.empty() || *end != '\0') {
            fail("INVALID_INTERVAL_FORMAT", "'" + value.text + "' is not a number of " + units[i] + "S",
                 value.span);
            return false;
        }
        if (size->micros == 0 && number != std::trunc(number)) {
            fail("INVALID_INTERVAL_FORMAT", units[i] + "S take a whole number, not " + value.text,
                 value.span);
            return false;
        }
        months += static_cast<std::int64_t>(number) * size->months;
        days += static_cast<std::int64_t>(number) * size->days;
        micros += std::llround(number * static_cast<double>(size->micros));
    }
    return true;
}

std::string Translator::intervalArithmetic(const Expr& e) {
    const bool right = e.args[1].kind == ExprKind::Interval;
    const bool left = e.args[0].kind == ExprKind::Interval;
    if ((left && right) || (left && e.text != "+") || (!(e.text == "+" || e.text == "-"))) {
        fail("DATATYPE_MISMATCH",
             "an INTERVAL can only be added to or subtracted from a date or timestamp (" + Printer::expr(e) +
                 ")",
             e.span);
        return "NULL";
    }
    const Expr& value = right ? e.args[0] : e.args[1];
    std::int64_t months, days, micros;
    if (!intervalParts(right ? e.args[1] : e.args[0], months, days, micros))
        return "NULL";
    const std::int64_t sign = e.text == "-" ? -1 : 1;
    return "spark_add_interval(" + expr(value) + ", " + std::to_string(sign * months) + ", " +
           std::to_string(sign * days) + ", " + std::to_string(sign * micros) + ")";
}

// timestampadd(unit, value, expr), its synonyms dateadd and the three-argument date_add: a TIMESTAMP.
std::string Translator::timestampAdd(const Expr& e) {
    const std::string fn = e.name.joined();
    if (e.args.size() != 3 || e.args[0].kind != ExprKind::Column || e.args[0].name.parts.size() != 1) {
        fail(fn + "(unit, value, expr) takes a unit (DAY, HOUR, ...), a number and a timestamp", e.span);
        return "NULL";
    }
    std::string unit = e.args[0].name.parts[0];
    for (auto& c : unit)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const UnitSize* size = unitSize(unit);
    if (!size) {
        fail("INVALID_PARAMETER_VALUE", "'" + e.args[0].name.parts[0] + "' is not a unit of " + fn + "()",
             e.args[0].span);
        return "NULL";
    }
    const std::string value = "CAST(" + expr(e.args[1]) + " AS INTEGER)";
    auto times = [&](std::int64_t k) {
        return k == 0 ? std::string("0") : "(" + value + " * " + std::to_string(k) + ")";
    };
    return "spark_add_interval(" + expr(e.args[2]) + ", " + times(size->months) + ", " + times(size->days) +
           ", " + times(size->micros) + ", 'TIMESTAMP')";
}

} // namespace cdc::sql
