// Columns are found by name in the live and collected sets separately, as they need not share a layout;
// the status and a "never" due time are words made here, so they sort and export as text, not values.
#include "ui/model/results/TombstoneModel.h"

#include "ui/model/ValueText.h"
#include "ui/model/results/ResultText.h"
#include "ui/model/results/RowChange.h"

#include <QFont>
#include <QGuiApplication>

namespace cdc::ui {

namespace {
const QString kSequence = QStringLiteral("__SEQUENCE");
const QString kDeletedAt = QStringLiteral("__DELETED_AT");
const QString kGcDueAt = QStringLiteral("__GC_DUE_AT");
const QString kCollectedIn = QStringLiteral("__COLLECTED_IN");

/// Row `row`'s value of column `name` in `rs`, nullptr when either is missing.
const cdc::Value* cellAt(const cdc::ResultSet& rs, int row, const QString& name) {
    const int c = resulttext::columnIndex(rs, name);
    if (c < 0 || row < 0 || static_cast<std::size_t>(row) >= rs.rows.size())
        return nullptr;
    const cdc::Row& r = rs.rows[static_cast<std::size_t>(row)];
    return static_cast<std::size_t>(c) < r.size() ? &r[static_cast<std::size_t>(c)] : nullptr;
}
} // namespace

TombstoneModel::TombstoneModel(QObject* parent) : QAbstractTableModel(parent) {}

void TombstoneModel::setSnapshot(const TargetSnapshot& snapshot) {
    beginResetModel();
    m_live = snapshot.tombstones;
    m_collected = snapshot.collected;
    m_updateId = snapshot.updateId;
    m_columns.clear();
    const auto add = [this](Field f, const QString& name, const QString& header) {
        m_columns.append({f, name, header, resulttext::columnIndex(m_live, name),
                          resulttext::columnIndex(m_collected, name)});
    };
    QStringList keys = snapshot.keyColumns;
    if (keys.isEmpty()) // no flow information: every column that is not the engine's own
        for (const std::string& c : m_live.columns.empty() ? m_collected.columns : m_live.columns)
            if (!QString::fromStdString(c).startsWith(QLatin1String("__")))
                keys << QString::fromStdString(c);
    for (const QString& k : keys)
        add(Field::Key, k, k);
    add(Field::Sequence, kSequence, tr("Delete sequence"));
    add(Field::RecordedAt, kDeletedAt, tr("Recorded at"));
    add(Field::GcDueAt, kGcDueAt, tr("GC due at"));
    add(Field::Status, QString(), tr("Status"));
    endResetModel();
}

void TombstoneModel::setSimulatedNow(std::optional<qint64> now) {
    m_now = now;
    if (rowCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

TombstoneModel::Field TombstoneModel::field(int column) const {
    return m_columns.at(column).field;
}

bool TombstoneModel::isDue(int row) const {
    if (!m_now || isCollected(row))
        return false;
    // Epoch seconds, as the simulated clock counts (engine::tombstones).
    const cdc::Value* due = cellAt(m_live, row, kGcDueAt);
    const auto* seconds = due ? std::get_if<std::int64_t>(due) : nullptr;
    return seconds && *seconds <= *m_now;
}

QString TombstoneModel::status(int row) const {
    if (isCollected(row)) {
        const std::size_t r = static_cast<std::size_t>(row - liveCount());
        QString in = resulttext::cellText(m_collected, r, resulttext::columnIndex(m_collected, kCollectedIn));
        if (in.isEmpty())
            in = QString::number(m_updateId);
        return tr("Collected in update %1").arg(in);
    }
    if (!isCollected(row) && neverCollected(row))
        return tr("Kept");
    return isDue(row) ? tr("Due for GC") : tr("Live");
}

bool TombstoneModel::neverCollected(int row) const {
    // SCD2 keeps its delete events as history: the engine gives them no GC due time.
    const cdc::Value* due = cellAt(m_live, row, kGcDueAt);
    return due && cdc::isNull(*due);
}

resulttext::CellRef TombstoneModel::stored(int row, const Column& column) const {
    if (isCollected(row))
        return {&m_collected, static_cast<std::size_t>(row - liveCount()), column.collected};
    return {&m_live, static_cast<std::size_t>(row), column.live};
}

QString TombstoneModel::text(int row, const Column& column) const {
    if (column.field == Field::Status)
        return status(row);
    if (column.field == Field::GcDueAt && !isCollected(row) && neverCollected(row))
        return tr("never");
    return stored(row, column).text();
}

QVariant TombstoneModel::value(int row, const Column& column) const {
    if (column.field == Field::Status ||
        (column.field == Field::GcDueAt && !isCollected(row) && neverCollected(row)))
        return cellValue(text(row, column).toStdString(), std::nullopt); // words, not stored values
    return stored(row, column).typed();
}

int TombstoneModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : liveCount() + collectedCount();
}

int TombstoneModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : m_columns.size();
}

QVariant TombstoneModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Column& column = m_columns.at(index.column());
    const bool collected = isCollected(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return text(index.row(), column);
    case CellValueRole:
        return value(index.row(), column);
    case Qt::ForegroundRole:
        if (collected)
            return ChangePalette::ghostText(QGuiApplication::palette());
        if (column.field == Field::Status && isDue(index.row()))
            return ChangePalette::accentText(RowChange::Closed, QGuiApplication::palette());
        return {};
    case Qt::FontRole:
        if (collected) {
            QFont f;
            f.setItalic(true);
            return f;
        }
        return {};
    case Qt::ToolTipRole:
        if (collected)
            return tr("Garbage-collected by update %1: a late upsert older than this delete would now "
                      "re-insert the row")
                .arg(m_updateId);
        if (neverCollected(index.row()))
            return tr("SCD type 2 keeps delete events as history: they are never garbage-collected");
        if (column.field == Field::GcDueAt)
            return tr("The first update that starts at or after this simulated time removes the tombstone");
        return {};
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter));
    case CollectedRole:
        return collected;
    case SourceRowRole:
        return collected ? index.row() - liveCount() : index.row();
    default:
        return {};
    }
}

QVariant TombstoneModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Vertical)
        return role == Qt::DisplayRole ? QVariant(section + 1) : QVariant();
    if (section < 0 || section >= m_columns.size())
        return {};
    const Column& c = m_columns.at(section);
    if (role == Qt::DisplayRole)
        return c.header;
    if (role == Qt::ToolTipRole)
        return c.name.isEmpty() ? tr("Live, due for collection, or collected by the shown update") : c.name;
    return {};
}

} // namespace cdc::ui
