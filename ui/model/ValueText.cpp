#include "ui/model/ValueText.h"

#include "core/common/ResultSet.h"

namespace cdc::ui {

QString displayText(const cdc::Value& value, const std::optional<cdc::DataType>& type) {
    return QString::fromStdString(cdc::displayValue(value, type));
}

std::optional<QString> parseCell(const QString& input, const std::optional<cdc::DataType>& type, cdc::Value& out) {
    const QString text = input.trimmed();
    if (text.isEmpty() || text.compare(QLatin1String("null"), Qt::CaseInsensitive) == 0) {
        out = std::monostate{};
        return std::nullopt;
    }
    if (type && type->kind == DataType::Kind::Boolean) {
        if (text.compare(QLatin1String("true"), Qt::CaseInsensitive) == 0 || text == QLatin1String("1"))
            out = std::int64_t{1};
        else if (text.compare(QLatin1String("false"), Qt::CaseInsensitive) == 0 || text == QLatin1String("0"))
            out = std::int64_t{0};
        else
            return QObject::tr("'%1' is not a BOOLEAN (true or false)").arg(text);
        return std::nullopt;
    }
    if (type && type->isIntegral()) {
        bool ok = false;
        const qint64 v = text.toLongLong(&ok);
        if (!ok)
            return QObject::tr("'%1' is not a whole number (column type %2)").arg(text, QString::fromStdString(type->toString()));
        out = static_cast<std::int64_t>(v);
        return std::nullopt;
    }
    if (type && type->isNumeric()) {
        bool ok = false;
        const double v = text.toDouble(&ok);
        if (!ok)
            return QObject::tr("'%1' is not a number (column type %2)").arg(text, QString::fromStdString(type->toString()));
        out = v;
        return std::nullopt;
    }
    if (!type) {
        // Untyped: keep numbers numeric so sequence columns order as the user expects.
        bool ok = false;
        if (const qint64 i = text.toLongLong(&ok); ok) {
            out = static_cast<std::int64_t>(i);
            return std::nullopt;
        }
    }
    out = input.toStdString();
    return std::nullopt;
}

QVariant cellValue(const cdc::Value& value, const std::optional<cdc::DataType>& type) {
    return QVariant::fromValue(CellValue{value, type});
}

} // namespace cdc::ui
