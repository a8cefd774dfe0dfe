#pragma once
/// Toolbar icons of the result panels, painted as vectors in the palette's text colour: crisp at any
/// device pixel ratio and right in light and dark themes without shipping image files.

#include <QIcon>

namespace cdc::ui::resulticons {

QIcon zoomIn();
QIcon zoomOut();
QIcon zoomFit();
QIcon changeFeed();
QIcon tombstone();
/// The kinds of table the target selector lists.
QIcon autoCdcTable();
QIcon appendTable();
QIcon materializedView();

} // namespace cdc::ui::resulticons
