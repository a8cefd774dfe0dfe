#include "ui/model/results/ChangeFeedModel.h"

#include "ui/model/results/ResultText.h"

#include <QFont>
#include <QGuiApplication>

namespace cdc::ui {

ChangeFeedModel::ChangeFeedModel(QObject* parent) : QAbstractTableModel(parent) {}

void ChangeFeedModel::setSnapshot(const TargetSnapshot& snapshot) {
    beginResetModel();
    m_feed = snapshot.changes;
    m_typeColumn = resulttext::columnIndex(m_feed, QStringLiteral("_change_type"));
    endResetModel();
}

QString ChangeFeedModel::changeType(int row) const {
    return resulttext::cellText(m_feed, static_cast<std::size_t>(row), m_typeColumn);
}

int ChangeFeedModel::count(const QString& type) const {
    int n = 0;
    for (int r = 0; r < rowCount(); ++r)
        n += changeType(r) == type;
    return n;
}

int ChangeFeedModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_feed.rows.size());
}

int ChangeFeedModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_feed.columns.size());
}

QVariant ChangeFeedModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const QString type = changeType(index.row());
    const RowChange change = rowChangeFromChangeType(type);
    const bool preimage = type == QLatin1String("update_preimage");
    switch (role) {
    case Qt::DisplayRole:
        return resulttext::cellText(m_feed, static_cast<std::size_t>(index.row()), index.column());
    case Qt::BackgroundRole: {
        const QPalette pal = QGuiApplication::palette();
        // A preimage is the row as it was: the postimage's hue, faded, so the pair reads as one change.
        const QColor c = preimage ? ChangePalette::mix(pal.color(QPalette::Base),
                                                       ChangePalette::accent(RowChange::Updated), 0.08)
                                  : ChangePalette::background(change, pal);
        return c.isValid() ? QVariant(c) : QVariant();
    }
    case Qt::ForegroundRole:
        return preimage || change == RowChange::Deleted
                   ? QVariant(ChangePalette::ghostText(QGuiApplication::palette()))
                   : QVariant();
    case Qt::FontRole:
        if (change == RowChange::Deleted || index.column() == m_typeColumn) {
            QFont f;
            f.setStrikeOut(change == RowChange::Deleted && index.column() != m_typeColumn);
            f.setBold(index.column() == m_typeColumn && !preimage);
            return f;
        }
        return {};
    case RowChangeRole: return static_cast<int>(change);
    case ChangeTypeRole: return type;
    case SourceRowRole: return index.row();
    default: return {};
    }
}

QVariant ChangeFeedModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole)
        return {};
    if (orientation == Qt::Vertical)
        return section + 1;
    if (section < 0 || section >= columnCount())
        return {};
    return QString::fromStdString(m_feed.columns[static_cast<std::size_t>(section)]);
}

} // namespace cdc::ui
