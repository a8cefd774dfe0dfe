#pragma once
/// Conversions between stored values and the text a user sees or types in a grid cell.

#include "core/common/DataType.h"
#include "core/common/Value.h"

#include <QString>
#include <QVariant>

#include <optional>

namespace cdc::ui {

/// How a cell shows a stored value ("null" for NULL, timestamps as stored).
QString displayText(const cdc::Value& value, const std::optional<cdc::DataType>& type);
/// The value a user's text means for a column of `type`: empty or `null` is NULL; otherwise Spark's ANSI
/// cast of the text to the type (sql::castValue, as INSERT in source SQL does). Text that does not convert
/// ('seven' for an INT, 300 for a TINYINT, '2026-13-45' for a DATE) is the returned error message.
std::optional<QString> parseCell(const QString& text, const std::optional<cdc::DataType>& type,
                                 cdc::Value& out);
/// A cell's stored value with its column type: what a grid sorts by and exports typed (NULL stays
/// NULL, numbers stay numbers), where the display text has lost both.
struct CellValue {
    cdc::Value value;
    std::optional<cdc::DataType> type;
};

/// The item-data role of grid models that answers with a CellValue (in a QVariant). Models without
/// it are sorted and exported by their display text.
inline constexpr int CellValueRole = Qt::UserRole + 100;

/// `value` of a column of `type` as CellValueRole data.
QVariant cellValue(const cdc::Value& value, const std::optional<cdc::DataType>& type);

} // namespace cdc::ui
