// One update's feed is small, so each snapshot resets the model; the one real job is telling an SCD2
// close (__END_AT from NULL to a value) from a plain update, which `_change_type` does not say.
#include "ui/model/results/ChangeFeedModel.h"

#include "ui/model/ValueText.h"
#include "ui/model/results/ChangeClassifier.h"
#include "ui/model/results/ResultText.h"

#include <QFont>
#include <QGuiApplication>

#include <unordered_map>

namespace cdc::ui {

ChangeFeedModel::ChangeFeedModel(QObject* parent) : QAbstractTableModel(parent) {}

void ChangeFeedModel::setSnapshot(const TargetSnapshot& snapshot) {
    beginResetModel();
    m_feed = snapshot.changes;
    m_typeColumn = resulttext::columnIndex(m_feed, QStringLiteral("_change_type"));
    m_changes.assign(m_feed.rows.size(), RowChange::None);
    for (std::size_t r = 0; r < m_feed.rows.size(); ++r)
        m_changes[r] = rowChangeFromChangeType(changeType(static_cast<int>(r)));
    if (snapshot.scd2) {
        // A pre/post pair whose __END_AT goes from NULL to a value closed the version.
        const std::vector<int> ids = identityColumns(snapshot, m_feed);
        const int end = resulttext::columnIndex(m_feed, resulttext::endAt());
        std::unordered_map<std::string, bool> openBefore;
        for (std::size_t r = 0; r < m_feed.rows.size(); ++r)
            if (changeType(static_cast<int>(r)) == QLatin1String("update_preimage"))
                openBefore[identityOf(snapshot, m_feed.rows[r], ids)] =
                    end >= 0 && cdc::isNull(m_feed.rows[r][end]);
        for (std::size_t r = 0; r < m_feed.rows.size(); ++r) {
            if (m_changes[r] != RowChange::Updated || end < 0 || cdc::isNull(m_feed.rows[r][end]))
                continue;
            auto it = openBefore.find(identityOf(snapshot, m_feed.rows[r], ids));
            if (it != openBefore.end() && it->second)
                m_changes[r] = RowChange::Closed;
        }
    }
    endResetModel();
}

QString ChangeFeedModel::changeType(int row) const {
    return resulttext::cellText(m_feed, static_cast<std::size_t>(row), m_typeColumn);
}

RowChange ChangeFeedModel::rowChange(int row) const {
    return row >= 0 && static_cast<std::size_t>(row) < m_changes.size()
               ? m_changes[static_cast<std::size_t>(row)]
               : RowChange::None;
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
    const RowChange change = rowChange(index.row());
    const bool preimage = type == QLatin1String("update_preimage");
    switch (role) {
    case Qt::DisplayRole:
        return resulttext::cellText(m_feed, static_cast<std::size_t>(index.row()), index.column());
    case CellValueRole:
        return resulttext::typedCell(m_feed, static_cast<std::size_t>(index.row()), index.column());
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
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(
            resulttext::cellAlignment(m_feed, static_cast<std::size_t>(index.row()), index.column()));
    case Qt::ToolTipRole:
        return change == RowChange::None ? QVariant() : QVariant(ChangePalette::description(change));
    case RowChangeRole:
        return static_cast<int>(change);
    case ChangeTypeRole:
        return type;
    case SourceRowRole:
        return index.row();
    default:
        return {};
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
