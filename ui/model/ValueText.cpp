// Both directions go through core (displayValue, castValue) so a grid cell, the CLI's output and a
// source INSERT spell and accept values the same way.
#include "ui/model/ValueText.h"

#include "core/common/ResultSet.h"
#include "core/sql/SparkCast.h"

namespace cdc::ui {

QString displayText(const cdc::Value& value, const std::optional<cdc::DataType>& type) {
    return QString::fromStdString(cdc::displayValue(value, type));
}

std::optional<QString> parseCell(const QString& input, const std::optional<cdc::DataType>& type,
                                 cdc::Value& out) {
    const QString text = input.trimmed();
    if (text.isEmpty() || text.compare(QLatin1String("null"), Qt::CaseInsensitive) == 0) {
        out = std::monostate{};
        return std::nullopt;
    }
    if (type) {
        // The same ANSI cast as INSERT in source SQL: what does not convert is refused, never stored as NULL.
        sql::CastResult cast = sql::castValue(input.toStdString(), *type, true);
        if (!cast.ok())
            return QString::fromStdString(cast.error);
        out = std::move(cast.value);
        return std::nullopt;
    }
    // Untyped: keep numbers numeric so sequence columns order as the user expects.
    bool ok = false;
    if (const qint64 i = text.toLongLong(&ok); ok) {
        out = static_cast<std::int64_t>(i);
        return std::nullopt;
    }
    out = input.toStdString();
    return std::nullopt;
}

QVariant cellValue(const cdc::Value& value, const std::optional<cdc::DataType>& type) {
    return QVariant::fromValue(CellValue{value, type});
}

} // namespace cdc::ui
