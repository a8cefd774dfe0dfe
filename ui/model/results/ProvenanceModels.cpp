#include "ui/model/results/ProvenanceModels.h"

#include "ui/model/ThemeColors.h"

#include <QPalette>

namespace cdc::ui {

using engine::EventFate;

namespace {

QString text(const Value& v) {
    return QString::fromStdString(displayText(v));
}

/// `orders_cdf` of `main.lab.orders_cdf`.
QString shortName(const std::string& table) {
    const QString name = QString::fromStdString(table);
    return name.mid(name.lastIndexOf(QLatin1Char('.')) + 1);
}

QString eventLabel(const engine::ExplainedEvent& e) {
    QString s = QObject::tr("sequence %1 · update %2").arg(text(e.sequence)).arg(e.update);
    if (!e.source.empty())
        s += QObject::tr(" · %1 row %2").arg(shortName(e.source)).arg(e.rowid);
    return s;
}

} // namespace

FateTone fateTone(EventFate fate) {
    switch (fate) {
    case EventFate::Current:
    case EventFate::OpenedVersion:
        return FateTone::Kept;
    case EventFate::Superseded:
    case EventFate::FoldedIntoVersion:
    case EventFate::TombstoneCollected:
        return FateTone::Replaced;
    case EventFate::Resurrected:
    case EventFate::RemovedByTruncate:
        return FateTone::Surprising;
    case EventFate::Tombstone:
    case EventFate::ClosedVersion:
        return FateTone::Deleting;
    case EventFate::LostInBatch:
    case EventFate::TieLost:
    case EventFate::Stale:
    case EventFate::BlockedByTombstone:
    case EventFate::BelowTruncate:
    case EventFate::DeleteIgnored:
        break;
    }
    return FateTone::Dropped;
}

QColor fateBackground(FateTone tone, const QPalette& palette) {
    QColor accent;
    switch (tone) {
    case FateTone::Kept:
        accent = QColor(0x2e, 0xa0, 0x43); // green, as inserted rows in the target tables
        break;
    case FateTone::Replaced:
        return palette.color(QPalette::Base);
    case FateTone::Dropped:
        accent = QColor(0xd2, 0x99, 0x22); // amber
        break;
    case FateTone::Surprising:
        accent = QColor(0xe5, 0x48, 0x4d); // red
        break;
    case FateTone::Deleting:
        accent = QColor(0x8b, 0x94, 0x9e); // grey
        break;
    }
    return themecolors::mix(palette.color(QPalette::Base), accent,
                            themecolors::isDark(palette) ? 0.34 : 0.20);
}

ProvenanceEventsModel::ProvenanceEventsModel(QObject* parent) : QAbstractTableModel(parent) {}

void ProvenanceEventsModel::setExplanation(const engine::Explanation& e) {
    beginResetModel();
    m_e = e;
    endResetModel();
}

void ProvenanceEventsModel::clear() {
    setExplanation({});
}

const engine::ExplainedEvent* ProvenanceEventsModel::eventAt(int row) const {
    return row >= 0 && row < rowCount() ? &m_e.events[static_cast<std::size_t>(row)] : nullptr;
}

int ProvenanceEventsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_e.events.size());
}

int ProvenanceEventsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() || m_e.columns.empty() ? 0 : whyColumn() + 1;
}

QVariant ProvenanceEventsModel::data(const QModelIndex& index, int role) const {
    const engine::ExplainedEvent* e = eventAt(index.row());
    if (!e)
        return {};
    const int c = index.column();
    if (role == Qt::BackgroundRole)
        return fateBackground(fateTone(e->fate), QPalette());
    if (role == Qt::ToolTipRole)
        return c == sourceColumn() && !e->source.empty()
                   ? tr("Row %1 of %2").arg(e->rowid).arg(QString::fromStdString(e->source))
                   : QString::fromStdString(fateName(e->fate) + ": " + e->why);
    if (role == Qt::ForegroundRole && fateTone(e->fate) == FateTone::Replaced)
        return themecolors::mutedText(QPalette());
    if (role != Qt::DisplayRole)
        return {};
    if (c == SequenceColumn)
        return text(e->sequence);
    if (c == OperationColumn)
        return e->isDelete ? tr("DELETE") : tr("UPSERT");
    if (c == UpdateColumn)
        return e->late ? tr("%1 (late)").arg(e->update) : QString::number(e->update);
    if (c == FateColumn)
        return QString::fromStdString(fateName(e->fate));
    if (c == sourceColumn()) // the table's own name: the schema is in the tool tip
        return e->source.empty() ? QString::number(e->rowid)
                                 : tr("%1 #%2").arg(shortName(e->source)).arg(e->rowid);
    if (c == whyColumn())
        return QString::fromStdString(e->why);
    const auto v = static_cast<std::size_t>(c - FirstValueColumn);
    return v < e->values.size() ? text(e->values[v]) : QVariant();
}

QVariant ProvenanceEventsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole)
        return {};
    if (orientation == Qt::Vertical)
        return section + 1;
    switch (section) {
    case SequenceColumn:
        return tr("Sequence");
    case OperationColumn:
        return tr("Operation");
    case UpdateColumn:
        return tr("Update");
    case FateColumn:
        return tr("Fate");
    default:
        break;
    }
    if (section == sourceColumn())
        return tr("Source row");
    if (section == whyColumn())
        return tr("Why");
    const auto v = static_cast<std::size_t>(section - FirstValueColumn);
    return v < m_e.columns.size() ? QString::fromStdString(m_e.columns[v]) : QVariant();
}

ColumnOriginModel::ColumnOriginModel(QObject* parent) : QAbstractTableModel(parent) {}

void ColumnOriginModel::setExplanation(const engine::Explanation& e) {
    beginResetModel();
    m_e = e;
    endResetModel();
}

void ColumnOriginModel::clear() {
    setExplanation({});
}

int ColumnOriginModel::eventRow(int row) const {
    return row >= 0 && row < rowCount() ? m_e.current[static_cast<std::size_t>(row)].event : -1;
}

int ColumnOriginModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_e.current.size());
}

int ColumnOriginModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ColumnOriginModel::data(const QModelIndex& index, int role) const {
    if (role != Qt::DisplayRole || index.row() >= rowCount())
        return {};
    const engine::ColumnOrigin& o = m_e.current[static_cast<std::size_t>(index.row())];
    switch (index.column()) {
    case NameColumn:
        return QString::fromStdString(o.column);
    case ValueColumn:
        return text(o.value);
    case SetByColumn:
        return o.event < 0 ? tr("no event supplies it")
                           : eventLabel(m_e.events[static_cast<std::size_t>(o.event)]);
    default:
        return {};
    }
}

QVariant ColumnOriginModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Column");
    case ValueColumn:
        return tr("Current value");
    case SetByColumn:
        return tr("Set by");
    default:
        return {};
    }
}

} // namespace cdc::ui
