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
/// The value a user's text means for a column of `type`: empty or `null` is NULL, integral and
/// BOOLEAN columns take integers (true/false), floating columns reals; anything else stays text.
/// Text that does not fit a numeric column is an error message.
std::optional<QString> parseCell(const QString& text, const std::optional<cdc::DataType>& type, cdc::Value& out);
/// Model role data for sorting and alignment.
QVariant sortValue(const cdc::Value& value);

} // namespace cdc::ui
