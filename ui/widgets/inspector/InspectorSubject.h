#pragma once
/// What the inspector shows: a node of the pipeline graph, named as the pipeline model spells it.

#include <QMetaType>
#include <QString>

namespace cdc::ui {

/// The kinds of node the inspector has a form for. View covers temporary and materialized views.
enum class InspectorKind { None, AutoCdcFlow, StreamingTable, View, AppendFlow, SourceTable };

} // namespace cdc::ui

Q_DECLARE_METATYPE(cdc::ui::InspectorKind)
