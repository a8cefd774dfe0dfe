#pragma once
/// Timestamps as the storage convention writes them ('YYYY-MM-DD HH:MM:SS[.ffffff]', UTC), parsed
/// from the spellings Spark accepts and formatted with Spark datetime patterns (yyyy-MM-dd HH:mm:ss.SSS).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cdc::sql {

struct SparkTimestamp {
    std::int64_t seconds = 0; ///< since 1970-01-01 00:00:00 UTC
    int micros = 0;

    /// 'YYYY-MM-DD HH:MM:SS' plus '.ffffff' when there is a fraction.
    std::string toStorage() const;
    std::string toDate() const;
    /// Spark datetime pattern letters: y M d H h m s S a E, 'quoted text'.
    std::string format(std::string_view pattern) const;

    /// ISO-like text: date, date + time (space or T), optional fraction, optional Z / ±hh[:mm] / UTC.
    static std::optional<SparkTimestamp> parse(std::string_view text);
    /// The date a text starts with, as CAST(... AS DATE) reads it: yyyy[-[m]m[-[d]d]], then nothing, or a
    /// blank or 'T' and anything (a time and a zone there are ignored, not applied).
    static std::optional<SparkTimestamp> parseDate(std::string_view text);
    /// Text read with a Spark datetime pattern.
    static std::optional<SparkTimestamp> parse(std::string_view text, std::string_view pattern);
    static SparkTimestamp fromEpochSeconds(double seconds);

    /// This instant plus an interval, as Spark adds one: the months first, the day clamped to the end of
    /// the month it lands in (2024-01-31 + 1 month = 2024-02-29), then the days, then the microseconds.
    /// Nothing when the result leaves the range of microseconds since the epoch that Spark's TIMESTAMP holds
    /// (Spark's DATETIME_OVERFLOW).
    std::optional<SparkTimestamp> plus(std::int64_t months, std::int64_t days, std::int64_t micros) const;
    static SparkTimestamp now();
};

} // namespace cdc::sql
