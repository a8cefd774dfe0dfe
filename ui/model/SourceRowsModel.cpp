// Why reload() patches rows rather than resetting: every cell edit comes back through
// Project::dataChanged, and a reset would close the editor and lose the current cell mid-Tab.
#include "ui/model/SourceRowsModel.h"

#include "ui/model/Project.h"
#include "ui/model/ThemeColors.h"
#include "ui/model/ValueText.h"

#include <QBrush>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>

namespace cdc::ui {

SourceRowsModel::SourceRowsModel(Project* project, const QString& table, QObject* parent)
    : QAbstractTableModel(parent), m_project(project), m_table(table) {
    connect(project, &Project::dataChanged, this, &SourceRowsModel::reload);
    reload();
}

QStringList SourceRowsModel::columnNames() const {
    QStringList names;
    for (const auto& c : m_info.columns)
        names << QString::fromStdString(c.name);
    return names;
}

void SourceRowsModel::reload() {
    storage::TableInfo info;
    QList<cdc::Row> delivered;
    QList<qint64> rowids;
    QList<QueuedEvent> pending;
    qint64 hidden = 0;
    qint64 hiddenPending = 0;
    auto& db = m_project->db();
    const auto guard = m_project->guardQuickRead("reading the source rows");
    if (auto found = storage::Catalog::find(db, m_table.toStdString()); found && *found) {
        info = **found;
        std::string sql = "SELECT rowid";
        for (std::size_t i = 0; i < info.columns.size(); ++i)
            sql += ", " + storage::quoteIdentifier(info.columns[i].name);
        // The latest delivered rows only: this runs after every step, and a source may hold the whole
        // history.
        sql += " FROM " + storage::quoteIdentifier(info.sqliteName) + " ORDER BY rowid DESC LIMIT " +
               std::to_string(kDeliveredShown);
        if (auto stmt = db.prepare(sql)) {
            while (true) {
                auto has = stmt->step();
                if (!has || !*has)
                    break;
                cdc::Row row = stmt->row();
                rowids.prepend(std::get<std::int64_t>(row.front()));
                row.erase(row.begin());
                delivered.prepend(std::move(row));
            }
        }
        if (delivered.size() == kDeliveredShown)
            if (auto count = db.prepare("SELECT count(*) FROM " + storage::quoteIdentifier(info.sqliteName));
                count && count->step().ok())
                hidden = count->int64(0) - kDeliveredShown;
        // The last queued rows only, for the same reason: an imported feed may queue millions. Add Row and
        // Paste Rows append, so what they add is always among them (the Event Queue shows the head).
        if (auto queued = projectstore::eventsOf(db, QString::fromStdString(info.name), kPendingShown))
            pending = std::move(queued).value();
        if (pending.size() == kPendingShown)
            if (auto count = projectstore::queuedCountOf(db, QString::fromStdString(info.name)))
                hiddenPending = *count - kPendingShown;
    }
    if (info.columns != m_info.columns) {
        beginResetModel();
        m_info = std::move(info);
        m_rowids = std::move(rowids);
        m_delivered = std::move(delivered);
        m_pending = std::move(pending);
        m_hiddenDelivered = hidden;
        m_hiddenPending = hiddenPending;
        endResetModel();
        return;
    }
    // Same columns: announce only what changed. Every edit of a cell comes back here (the project
    // reports its change), and a reset would close the editor and lose the current cell in the middle
    // of a Tab from one cell to the next.
    const auto rowAt = [](const QList<cdc::Row>& done, const QList<QueuedEvent>& queued,
                          int row) -> const cdc::Row& {
        return row < done.size() ? done[row] : queued[row - done.size()].values;
    };
    const int oldRows = rowCount();
    const int newRows = int(delivered.size() + pending.size());
    int firstChanged = -1, lastChanged = -1;
    for (int r = 0; r < std::min(oldRows, newRows); ++r)
        if (rowAt(m_delivered, m_pending, r) != rowAt(delivered, pending, r) ||
            isPending(r) != (r >= delivered.size())) {
            firstChanged = firstChanged < 0 ? r : firstChanged;
            lastChanged = r;
        }
    const auto adopt = [&] {
        m_info = std::move(info);
        m_rowids = std::move(rowids);
        m_delivered = std::move(delivered);
        m_pending = std::move(pending);
        m_hiddenDelivered = hidden;
        m_hiddenPending = hiddenPending;
    };
    if (newRows > oldRows) {
        beginInsertRows({}, oldRows, newRows - 1);
        adopt();
        endInsertRows();
    } else if (newRows < oldRows) {
        beginRemoveRows({}, newRows, oldRows - 1);
        adopt();
        endRemoveRows();
    } else {
        adopt();
    }
    if (firstChanged >= 0)
        emit dataChanged(index(firstChanged, 0), index(lastChanged, columnCount() - 1));
    if (rowCount() > 0) // "+1", "+2" number the queued rows: delivering shifts them
        emit headerDataChanged(Qt::Vertical, 0, rowCount() - 1);
}

int SourceRowsModel::rowOfRowId(qint64 rowid) const {
    return static_cast<int>(m_rowids.indexOf(rowid));
}

int SourceRowsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_delivered.size() + m_pending.size());
}
int SourceRowsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_info.columns.size());
}

qint64 SourceRowsModel::eventId(int row) const {
    return isPending(row) ? m_pending[row - m_delivered.size()].id : 0;
}

QVariant SourceRowsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const bool pending = isPending(index.row());
    const cdc::Row& row =
        pending ? m_pending[index.row() - m_delivered.size()].values : m_delivered[index.row()];
    const cdc::Value value = std::size_t(index.column()) < row.size() ? row[index.column()] : cdc::Value{};
    const auto& type = m_info.columns[index.column()].type;
    switch (role) {
    case Qt::DisplayRole:
        return displayText(value, type);
    case Qt::EditRole:
        return isNull(value) ? QString() : displayText(value, type);
    case CellValueRole:
        return cellValue(value, type);
    case Qt::ForegroundRole:
        if (!pending || isNull(value))
            return themecolors::mutedText(QGuiApplication::palette());
        return {};
    case Qt::FontRole:
        if (isNull(value)) {
            QFont italic;
            italic.setItalic(true);
            return italic;
        }
        return {};
    case Qt::TextAlignmentRole:
        return int((type.isNumeric() ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        return pending ? tr("Waiting in the event queue (event %1): editable until delivered")
                             .arg(eventId(index.row()))
                       : tr("Delivered to the pipeline: read-only");
    default:
        return {};
    }
}

QVariant SourceRowsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && section < columnCount()) {
        const auto& c = m_info.columns[section];
        if (role == Qt::DisplayRole)
            return QString::fromStdString(c.name);
        if (role == Qt::ToolTipRole)
            return QStringLiteral("%1 %2").arg(QString::fromStdString(c.name),
                                               QString::fromStdString(c.type.toString()));
    }
    if (orientation == Qt::Vertical && role == Qt::DisplayRole)
        return isPending(section)
                   ? QStringLiteral("+%1").arg(m_hiddenPending + section - m_delivered.size() + 1)
                   : QString::number(m_hiddenDelivered + section + 1);
    if (orientation == Qt::Vertical && role == Qt::ToolTipRole && isPending(section) && m_hiddenPending > 0)
        return tr("Queued rows: the last %L1 of %L2 are shown (the Event Queue shows the first)")
            .arg(m_pending.size())
            .arg(m_hiddenPending + m_pending.size());
    if (orientation == Qt::Vertical && role == Qt::ToolTipRole && !isPending(section) &&
        m_hiddenDelivered > 0)
        return tr("Delivered rows: the latest %L1 of %L2 are shown")
            .arg(m_delivered.size())
            .arg(m_hiddenDelivered + m_delivered.size());
    return QAbstractTableModel::headerData(section, orientation, role);
}

Qt::ItemFlags SourceRowsModel::flags(const QModelIndex& index) const {
    if (!index.isValid())
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (isPending(index.row()))
        f |= Qt::ItemIsEditable;
    return f;
}

bool SourceRowsModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || !isPending(index.row()))
        return false;
    QueuedEvent event = m_pending[index.row() - m_delivered.size()];
    cdc::Value parsed;
    if (auto error = parseCell(value.toString(), m_info.columns[index.column()].type, parsed)) {
        m_lastError = tr("row %1, column %2: %3")
                          .arg(index.row() + 1)
                          .arg(QString::fromStdString(m_info.columns[index.column()].name), *error);
        emit editRejected(m_lastError);
        return false;
    }
    event.values.resize(m_info.columns.size());
    if (event.values[index.column()] == parsed)
        return true;
    event.values[index.column()] = parsed;
    if (auto st = m_project->updateEvent(event); !st) {
        m_lastError = QString::fromStdString(st.error().message);
        emit editRejected(m_lastError);
        return false;
    }
    return true;
}

Status SourceRowsModel::appendTextRows(const QList<QStringList>& cells, const QList<int>& mapping,
                                       const QString& what) {
    QList<QueuedEvent> events;
    for (int r = 0; r < cells.size(); ++r) {
        QueuedEvent event = QueuedEvent::row(0, QString::fromStdString(m_info.name), {});
        for (int c = 0; c < int(m_info.columns.size()); ++c) {
            const int from = c < mapping.size() ? mapping[c] : c;
            const QString text = from >= 0 && from < cells[r].size() ? cells[r][from] : QString();
            cdc::Value parsed;
            if (auto error = parseCell(text, m_info.columns[c].type, parsed))
                return Diagnostic::error("BAD_CELL",
                                         tr("row %1, column %2: %3")
                                             .arg(r + 1)
                                             .arg(QString::fromStdString(m_info.columns[c].name), *error)
                                             .toStdString());
            event.values.push_back(parsed);
        }
        events << event;
    }
    if (events.isEmpty())
        return Diagnostic::error("NO_ROWS", "there are no rows to add");
    return m_project->appendEvents(events, what);
}

Status SourceRowsModel::addEmptyRow() {
    if (m_info.columns.empty())
        return Diagnostic::error("NO_TABLE",
                                 "the source table '" + m_table.toStdString() + "' does not exist");
    QueuedEvent event =
        QueuedEvent::row(0, QString::fromStdString(m_info.name), cdc::Row(m_info.columns.size()));
    return m_project->appendEvents({event}, tr("Add row to %1").arg(m_table));
}

Status SourceRowsModel::removeRowsAt(const QList<int>& rows) {
    QList<qint64> ids;
    for (int row : rows)
        if (isPending(row))
            ids << eventId(row);
    if (ids.isEmpty())
        return Diagnostic::error("DELIVERED",
                                 "delivered rows cannot be deleted: the pipeline has already read them");
    return m_project->removeEvents(ids);
}

} // namespace cdc::ui
