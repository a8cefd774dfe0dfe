#pragma once
/// Maps SEQUENCE BY values to positions on a horizontal axis and proposes labelled ticks:
/// numbers keep their value, timestamps and dates become epoch seconds, and everything else
/// (STRUCT, STRING...) becomes the ordinal of the value among the distinct values, ordered as the
/// engine orders sequences (struct fields left to right, NULL first).

#include "core/common/DataType.h"
#include "core/common/Value.h"

#include <QHash>
#include <QList>
#include <QString>

#include <optional>
#include <vector>

namespace cdc::ui {

class SequenceAxis {
public:
    enum class Scale { Numeric, Temporal, Ordinal };
    struct Tick {
        double position = 0;
        QString label;
    };

    /// Chooses the scale from `type` (or, when unknown, from the values) and learns the value range.
    void build(const std::optional<cdc::DataType>& type, const std::vector<const cdc::Value*>& values);

    /// Takes in values that arrived and values that left since build() without rebuilding; false
    /// when only build() over all values gives the right axis (ordinal scale, undeclared type, or a
    /// departing value at the edge of the range); then nothing is changed.
    bool extend(const std::vector<const cdc::Value*>& added, const std::vector<const cdc::Value*>& removed);

    Scale scale() const { return m_scale; }
    bool isEmpty() const { return !m_hasRange; }
    double minimum() const { return m_min; }
    double maximum() const { return m_max; }
    /// Axis position of a value; nullopt for NULL or a value the axis has not seen (ordinal scale).
    std::optional<double> position(const cdc::Value& v) const;
    /// A value as the axis labels it: ISO text for timestamps, "(a, b)" for structs.
    QString text(const cdc::Value& v) const;
    /// Ticks in [from, to] at least `minSpacingPx` apart when one unit is `pixelsPerUnit` pixels wide.
    QList<Tick> ticks(double from, double to, double pixelsPerUnit, double minSpacingPx) const;
    /// Smallest distance between two distinct positions worth resolving (zoom limit).
    double resolution() const { return m_resolution; }
    /// Ordinal scale: the label of each position, in order.
    const QStringList& ordinalLabels() const { return m_ordinalLabels; }

    /// Field values of a STRUCT stored as a JSON object, in declaration (text) order.
    static QStringList structFieldTexts(const QString& json);

private:
    void updateResolution();
    QList<Tick> numericTicks(double from, double to, double step) const;
    QList<Tick> temporalTicks(double from, double to, double step) const;

    Scale m_scale = Scale::Numeric;
    bool m_integral = true;
    bool m_isDate = false;
    bool m_typed = false;
    bool m_hasRange = false;
    double m_min = 0;
    double m_max = 1;
    double m_resolution = 1;
    QHash<QString, int> m_ordinal; ///< ordinal scale: raw value text -> position
    QStringList m_ordinalLabels;
};

} // namespace cdc::ui
