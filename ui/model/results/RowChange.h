#pragma once
/// How the shown update touched a target row, the item-data roles that carry it, and the colours
/// that show it in light and dark themes alike.

#include <QColor>
#include <QIcon>
#include <QList>
#include <QPalette>
#include <QString>

namespace cdc::ui {

enum class RowChange {
    None,     ///< untouched by the shown update
    Inserted, ///< new row (SCD2: new version)
    Updated,  ///< values changed in place (SCD2: untracked columns, or a version's bounds moved)
    Closed,   ///< SCD2 version whose __END_AT the update set
    Deleted,  ///< gone from the target: shown as a ghost row from the change feed
};

/// Roles shared by the result models (on top of Qt's display/background/font/tooltip roles).
enum ResultRole {
    RowChangeRole = Qt::UserRole + 1, ///< RowChange as int
    GhostRole,                        ///< bool: the row is no longer in the target
    SourceRowRole,                    ///< int: row index in the snapshot result set it comes from
    ChangeTypeRole,                   ///< QString: the change feed's _change_type
    CollectedRole,                    ///< bool (tombstones): collected by the shown update
};

/// A small fixed palette of change hues, blended into the current palette's base colour so the tint
/// reads on white and on dark backgrounds.
class ChangePalette {
public:
    static QList<RowChange> changes() {
        return {RowChange::Inserted, RowChange::Updated, RowChange::Closed, RowChange::Deleted};
    }
    /// The saturated hue (bar outlines, markers, legend chips).
    static QColor accent(RowChange change);
    /// A row background: the accent mixed into `palette`'s base colour; invalid for RowChange::None.
    static QColor background(RowChange change, const QPalette& palette);
    /// Text colour for ghost (deleted / collected) rows, readable on Base and on the Deleted tint.
    static QColor ghostText(const QPalette& palette);
    /// The accent as a text colour: darkened (light themes) or lightened (dark themes) until it reads on
    /// Base.
    static QColor accentText(RowChange change, const QPalette& palette);
    static QColor mix(const QColor& a, const QColor& b, double amountOfB);
    static bool isDark(const QPalette& palette);
    /// A square chip of the accent colour, for legends and header decorations.
    static QIcon chip(RowChange change);
    static QString label(RowChange change);
    static QString description(RowChange change);
};

RowChange rowChangeFromChangeType(const QString& changeType);

} // namespace cdc::ui
