// STRUCT sequences arrive as JSON text, so their fields are read in written order (QJsonObject would
// sort the keys) and compared field by field; ticks snap to 1-2-5 steps, or to calendar-like steps in time.
#include "ui/model/results/SequenceAxis.h"

#include "ui/model/results/ResultText.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTimeZone>

#include <algorithm>
#include <cmath>

namespace cdc::ui {

namespace {

QString rawText(const cdc::Value& v) {
    return QString::fromStdString(cdc::displayText(v));
}

/// Top-level keys of a JSON object in the order they are written (QJsonObject sorts them).
QStringList keysInOrder(const QString& s) {
    QStringList keys;
    int depth = 0;
    bool inString = false, escaped = false;
    QString current;
    for (qsizetype i = 0; i < s.size(); ++i) {
        const QChar c = s[i];
        if (inString) {
            if (escaped) {
                escaped = false;
                current += c;
            } else if (c == QLatin1Char('\\')) {
                escaped = true;
            } else if (c == QLatin1Char('"')) {
                inString = false;
                qsizetype j = i + 1;
                while (j < s.size() && s[j].isSpace())
                    ++j;
                if (depth == 1 && j < s.size() && s[j] == QLatin1Char(':'))
                    keys << current;
            } else {
                current += c;
            }
        } else if (c == QLatin1Char('"')) {
            inString = true;
            current.clear();
        } else if (c == QLatin1Char('{') || c == QLatin1Char('[')) {
            ++depth;
        } else if (c == QLatin1Char('}') || c == QLatin1Char(']')) {
            --depth;
        }
    }
    return keys;
}

QList<QJsonValue> structFields(const QString& json) {
    const QJsonDocument doc = QJsonDocument::fromJson(json.toUtf8());
    QList<QJsonValue> out;
    if (doc.isArray()) {
        for (const QJsonValue& v : doc.array())
            out << v;
    } else if (doc.isObject()) {
        const QJsonObject o = doc.object();
        for (const QString& k : keysInOrder(json))
            out << o.value(k);
    }
    return out;
}

int rankOf(const QJsonValue& v) {
    switch (v.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        return 0;
    case QJsonValue::Bool:
        return 1;
    case QJsonValue::Double:
        return 2;
    case QJsonValue::String:
        return 3;
    default:
        return 4;
    }
}

QString jsonText(const QJsonValue& v) {
    switch (v.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double:
        return QString::number(v.toDouble(), 'g', 17);
    case QJsonValue::String:
        return v.toString();
    case QJsonValue::Array:
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    case QJsonValue::Object:
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    }
    return {};
}

int compareJson(const QJsonValue& a, const QJsonValue& b) {
    const int ra = rankOf(a), rb = rankOf(b);
    if (ra != rb)
        return ra < rb ? -1 : 1;
    if (ra == 1)
        return int(a.toBool()) - int(b.toBool());
    if (ra == 2)
        return a.toDouble() < b.toDouble() ? -1 : (a.toDouble() > b.toDouble() ? 1 : 0);
    if (ra == 0)
        return 0;
    return jsonText(a).compare(jsonText(b));
}

/// 1, 2 or 5 times a power of ten, at least `raw`.
double niceStep(double raw) {
    if (!(raw > 0))
        return 1;
    const double p = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * p >= raw)
            return m * p;
    return 10 * p;
}

} // namespace

QStringList SequenceAxis::structFieldTexts(const QString& json) {
    QStringList out;
    for (const QJsonValue& v : structFields(json))
        out << jsonText(v);
    return out;
}

void SequenceAxis::build(const std::optional<cdc::DataType>& type,
                         const std::vector<const cdc::Value*>& values) {
    using K = cdc::DataType::Kind;
    m_ordinal.clear();
    m_ordinalLabels.clear();
    m_hasRange = false;
    m_integral = true;
    m_isDate = type && type->kind == K::Date;
    m_typed = type.has_value();

    if (type) {
        m_scale = type->isNumeric() ? Scale::Numeric : type->isTemporal() ? Scale::Temporal : Scale::Ordinal;
    } else {
        // No declared type: numbers are numeric, text that reads as time is temporal, the rest ordinal.
        bool allNumbers = true, allTimes = true;
        for (const cdc::Value* v : values) {
            if (cdc::isNull(*v))
                continue;
            const bool number =
                std::holds_alternative<std::int64_t>(*v) || std::holds_alternative<double>(*v);
            allNumbers = allNumbers && number;
            allTimes = allTimes && !number && resulttext::parseTimestampSeconds(rawText(*v)).has_value();
        }
        m_scale = allNumbers ? Scale::Numeric : allTimes ? Scale::Temporal : Scale::Ordinal;
    }

    if (m_scale == Scale::Ordinal) {
        QStringList distinct;
        QSet<QString> seen;
        for (const cdc::Value* v : values)
            if (!cdc::isNull(*v)) {
                const QString t = rawText(*v);
                if (!seen.contains(t)) {
                    seen.insert(t);
                    distinct << t;
                }
            }
        const bool structured = (type && (type->kind == K::Struct || type->kind == K::Array)) ||
                                (!type && !distinct.isEmpty() &&
                                 std::all_of(distinct.begin(), distinct.end(), [](const QString& s) {
                                     return s.startsWith(QLatin1Char('{')) || s.startsWith(QLatin1Char('['));
                                 }));
        if (structured) {
            std::vector<std::pair<QList<QJsonValue>, QString>> keyed;
            keyed.reserve(distinct.size());
            for (const QString& t : distinct)
                keyed.emplace_back(structFields(t), t);
            std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) {
                const qsizetype n = std::min(a.first.size(), b.first.size());
                for (qsizetype i = 0; i < n; ++i)
                    if (int c = compareJson(a.first[i], b.first[i]))
                        return c < 0;
                return a.first.size() < b.first.size();
            });
            distinct.clear();
            for (const auto& k : keyed)
                distinct << k.second;
        } else {
            // Binary order of UTF-8 bytes, as SQLite and Spark compare strings.
            std::sort(distinct.begin(), distinct.end(),
                      [](const QString& a, const QString& b) { return a.toUtf8() < b.toUtf8(); });
        }
        for (int i = 0; i < distinct.size(); ++i) {
            m_ordinal.insert(distinct[i], i);
            m_ordinalLabels << (structured ? QStringLiteral("(%1)").arg(
                                                 structFieldTexts(distinct[i]).join(QStringLiteral(", ")))
                                           : distinct[i]);
        }
        m_hasRange = !distinct.isEmpty();
        m_min = 0;
        m_max = m_hasRange ? distinct.size() - 1 : 1;
        m_resolution = 1;
        return;
    }

    std::vector<double> positions;
    positions.reserve(values.size());
    for (const cdc::Value* v : values)
        if (auto p = position(*v)) {
            positions.push_back(*p);
            if (m_scale == Scale::Numeric && std::holds_alternative<double>(*v) && *p != std::floor(*p))
                m_integral = false;
        }
    if (positions.empty()) {
        m_min = 0;
        m_max = 1;
        return;
    }
    const auto [min, max] = std::minmax_element(positions.begin(), positions.end());
    m_hasRange = true;
    m_min = *min;
    m_max = *max;
    updateResolution();
}

void SequenceAxis::updateResolution() {
    m_resolution = m_scale == Scale::Temporal ? 0.001 : (m_integral ? 1 : (m_max - m_min) / 1e6);
    if (!(m_resolution > 0))
        m_resolution = 1;
}

bool SequenceAxis::extend(const std::vector<const cdc::Value*>& added,
                          const std::vector<const cdc::Value*>& removed) {
    // Ordinal positions depend on every value, and an undeclared type may change scale with new values.
    if (m_scale == Scale::Ordinal || !m_typed)
        return false;
    std::vector<double> arriving;
    arriving.reserve(added.size());
    for (const cdc::Value* v : added)
        if (auto p = position(*v))
            arriving.push_back(*p);
    std::sort(arriving.begin(), arriving.end());
    for (const cdc::Value* v : removed) {
        const auto p = position(*v);
        if (!p || std::binary_search(arriving.begin(), arriving.end(), *p))
            continue; // a closed version keeps its start: that value stays
        // The range may shrink, or the last fractional value go: only all values tell.
        if (m_hasRange && (*p <= m_min || *p >= m_max))
            return false;
        if (!m_integral && *p != std::floor(*p))
            return false;
    }
    for (const cdc::Value* v : added) {
        const auto p = position(*v);
        if (!p)
            continue; // build() skips it too
        if (m_scale == Scale::Numeric && std::holds_alternative<double>(*v) && *p != std::floor(*p))
            m_integral = false;
        m_min = m_hasRange ? std::min(m_min, *p) : *p;
        m_max = m_hasRange ? std::max(m_max, *p) : *p;
        m_hasRange = true;
    }
    updateResolution();
    return true;
}

std::optional<double> SequenceAxis::position(const cdc::Value& v) const {
    if (cdc::isNull(v))
        return std::nullopt;
    switch (m_scale) {
    case Scale::Numeric:
        if (auto* i = std::get_if<std::int64_t>(&v))
            return static_cast<double>(*i);
        if (auto* d = std::get_if<double>(&v))
            return *d;
        return std::nullopt;
    case Scale::Temporal: {
        if (auto* s = std::get_if<std::string>(&v))
            return resulttext::parseTimestampSeconds(QString::fromStdString(*s));
        return std::nullopt;
    }
    case Scale::Ordinal: {
        auto it = m_ordinal.constFind(rawText(v));
        return it == m_ordinal.cend() ? std::nullopt : std::optional<double>(*it);
    }
    }
    return std::nullopt;
}

QString SequenceAxis::text(const cdc::Value& v) const {
    if (cdc::isNull(v))
        return QStringLiteral("null");
    if (m_scale == Scale::Temporal) {
        if (auto p = position(v))
            return m_isDate ? rawText(v) : resulttext::isoFromSeconds(*p);
    }
    if (m_scale == Scale::Ordinal)
        if (auto p = position(v))
            return m_ordinalLabels.value(static_cast<int>(*p));
    return rawText(v);
}

QList<SequenceAxis::Tick> SequenceAxis::ticks(double from, double to, double pixelsPerUnit,
                                              double minSpacingPx) const {
    if (!(pixelsPerUnit > 0) || !(to >= from))
        return {};
    const double raw = minSpacingPx / pixelsPerUnit;
    if (m_scale == Scale::Temporal)
        return temporalTicks(from, to, raw);
    double step = niceStep(raw);
    if (m_scale == Scale::Ordinal || m_integral)
        step = std::max(1.0, std::ceil(step));
    return numericTicks(from, to, step);
}

QList<SequenceAxis::Tick> SequenceAxis::numericTicks(double from, double to, double step) const {
    QList<Tick> out;
    const double first = std::ceil(from / step) * step;
    for (double x = first; x <= to + step * 1e-9 && out.size() < 10000; x += step) {
        const double v = std::abs(x) < step * 1e-9 ? 0.0 : x;
        if (m_scale == Scale::Ordinal) {
            const int i = static_cast<int>(std::lround(v));
            if (i >= 0 && i < m_ordinalLabels.size())
                out.append({v, m_ordinalLabels[i]});
        } else {
            const bool whole = std::abs(v - std::round(v)) < 1e-9 && std::abs(v) < 1e15;
            out.append({v, whole ? QString::number(static_cast<qint64>(std::llround(v)))
                                 : QString::number(v, 'g', 12)});
        }
    }
    return out;
}

QList<SequenceAxis::Tick> SequenceAxis::temporalTicks(double from, double to, double rawStep) const {
    static const double steps[] = {0.001,      0.01,       0.1,        1,     5,         15,
                                   30,         60,         300,        900,   1800,      3600,
                                   3 * 3600,   6 * 3600,   12 * 3600,  86400, 2 * 86400, 7 * 86400,
                                   30 * 86400, 91 * 86400, 365 * 86400};
    double step = steps[std::size(steps) - 1];
    for (double s : steps)
        if (s >= rawStep) {
            step = s;
            break;
        }
    while (step < rawStep)
        step *= 2;
    if (m_isDate)
        step = std::max(step, 86400.0);
    QString format = step >= 86400 ? QStringLiteral("yyyy-MM-dd")
                     : step >= 60  ? QStringLiteral("HH:mm")
                     : step >= 1   ? QStringLiteral("HH:mm:ss")
                                   : QStringLiteral("HH:mm:ss.zzz");
    QList<Tick> out;
    QDate lastDay;
    const double first = std::ceil(from / step) * step;
    for (double t = first; t <= to + step * 1e-9 && out.size() < 10000; t += step) {
        const QDateTime dt =
            QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(std::llround(t * 1000)), QTimeZone::utc());
        QString label = dt.toString(format);
        // Sub-day ticks say which day they are on at the first tick and whenever the day changes.
        if (step < 86400 && dt.date() != lastDay)
            label = dt.toString(QStringLiteral("yyyy-MM-dd ")) + label;
        lastDay = dt.date();
        out.append({t, label});
    }
    return out;
}

} // namespace cdc::ui
