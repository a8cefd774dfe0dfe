// How a patch is announced: the old ghost rows leave first, then each changed key's rows are removed
// and inserted, last key first so the rows before keep their numbers. Views read the model between those
// signals, so resolve() answers each row from the old or the new snapshot (Transition) until it is over.
#include "ui/model/results/TargetRowsModel.h"

#include "ui/model/ValueText.h"
#include "ui/model/results/ResultText.h"

#include <QFont>
#include <QGuiApplication>

namespace cdc::ui {

TargetRowsModel::TargetRowsModel(QObject* parent) : QAbstractTableModel(parent) {}

void TargetRowsModel::setSnapshot(const TargetSnapshot& snapshot) {
    setSnapshot(std::make_shared<const TargetSnapshot>(snapshot));
}

TargetRowsModel::Shown TargetRowsModel::derive(SharedSnapshot snapshot) {
    Shown s;
    s.snapshot = snapshot ? std::move(snapshot) : emptySnapshot();
    s.changes = changesOf(*s.snapshot);
    for (const std::string& name : s.snapshot->rows.columns)
        s.ghostColumns.push_back(resulttext::columnIndex(s.snapshot->changes, QString::fromStdString(name)));
    return s;
}

void TargetRowsModel::setSnapshot(SharedSnapshot snapshot) {
    if (snapshot && snapshot->serial != 0 && snapshot->serial == m_shown.snapshot->serial && !m_transition) {
        m_shown.snapshot = std::move(snapshot); // the same rows again (reloaded without an update)
        return;
    }
    if (snapshot && canPatch(*snapshot)) {
        patch(std::move(snapshot));
        return;
    }
    beginResetModel();
    m_shown = derive(std::move(snapshot));
    m_fetched = std::min(totalRows(), FetchBatch);
    endResetModel();
}

bool TargetRowsModel::canPatch(const TargetSnapshot& next) const {
    const TargetSnapshot& shown = *m_shown.snapshot;
    return next.patch.baseSerial != 0 && next.patch.baseSerial == shown.serial &&
           next.rows.columns == shown.rows.columns && !m_transition;
}

void TargetRowsModel::patch(SharedSnapshot next) {
    const bool allFetched = m_fetched == m_shown.total();
    m_announcing = true;
    m_transition = std::make_unique<Transition>();
    m_transition->base = std::exchange(m_shown, derive(std::move(next)));
    const int baseRows = m_transition->base.targetRows();
    moveSplit(baseRows, m_shown.targetRows() - baseRows); // everything still the base's

    // The base's ghost rows (the previous update's deletes) leave first.
    const bool ghostsShown = m_fetched > baseRows;
    if (ghostsShown)
        beginRemoveRows({}, baseRows, m_fetched - 1);
    m_transition->ghosts = Transition::Ghosts::None;
    if (ghostsShown) {
        m_fetched = baseRows;
        endRemoveRows();
    }

    // Then each changed key's rows, the last key first so that the rows before keep their numbers.
    const std::vector<RowsPatch::Span>& spans = m_shown.snapshot->patch.spans;
    for (auto span = spans.rbegin(); span != spans.rend(); ++span) {
        const int at = span->oldBegin;
        if (at >= m_fetched) { // not fetched yet: nothing to announce
            moveSplit(at, span->newBegin - at);
            continue;
        }
        const int removed = std::min(span->oldEnd, m_fetched) - at;
        if (removed > 0)
            beginRemoveRows({}, at, at + removed - 1);
        moveSplit(at, span->newEnd - at);
        if (removed > 0) {
            m_fetched -= removed;
            endRemoveRows();
        }
        const int inserted = span->newEnd - span->newBegin;
        if (inserted > 0)
            beginInsertRows({}, at, at + inserted - 1);
        moveSplit(at, span->newBegin - at);
        if (inserted > 0) {
            m_fetched += inserted;
            endInsertRows();
        }
    }
    m_transition.reset(); // the rows are all the new snapshot's now, and its ghosts follow them

    const int want = allFetched ? totalRows() : std::max(m_fetched, std::min(totalRows(), FetchBatch));
    if (want > m_fetched) {
        beginInsertRows({}, m_fetched, want - 1);
        m_fetched = want;
        endInsertRows();
    }
    m_announcing = false;
    // The previous update's highlights go, this one's come: one repaint of what is fetched.
    if (m_fetched > 0) {
        emit dataChanged(index(0, 0), index(m_fetched - 1, columnCount() - 1));
        emit headerDataChanged(Qt::Vertical, 0, m_fetched - 1);
    }
}

TargetRowsModel::Source TargetRowsModel::resolve(int row) const {
    const std::size_t r = static_cast<std::size_t>(std::max(row, 0));
    if (!m_transition)
        return {&m_shown, r};
    const Transition& t = *m_transition;
    const int targetRows = m_shown.targetRows() - t.shift;
    if (row < t.split)
        return {&t.base, r};
    if (row < targetRows)
        return {&m_shown, static_cast<std::size_t>(row + t.shift)};
    const std::size_t ghost = static_cast<std::size_t>(row - targetRows);
    if (t.ghosts == Transition::Ghosts::Base)
        return {&t.base, static_cast<std::size_t>(t.base.targetRows()) + ghost};
    return {&m_shown, static_cast<std::size_t>(m_shown.targetRows()) + ghost};
}

void TargetRowsModel::clear() {
    setSnapshot(emptySnapshot());
}

int TargetRowsModel::totalRows() const {
    if (!m_transition)
        return m_shown.total();
    const Transition& t = *m_transition;
    const int ghosts = t.ghosts == Transition::Ghosts::Base ? t.base.total() - t.base.targetRows() : 0;
    return m_shown.targetRows() - t.shift + ghosts;
}

void TargetRowsModel::fetchUpTo(int row) {
    // Views (and the model tester) fetch from their row-change handlers: not while rows are announced.
    if (m_announcing)
        return;
    const int want = std::min(totalRows(), row + 1);
    if (want <= m_fetched)
        return;
    m_announcing = true;
    beginInsertRows({}, m_fetched, want - 1);
    m_fetched = want;
    endInsertRows();
    m_announcing = false;
}

RowChange TargetRowsModel::rowChange(int row) const {
    const Source s = resolve(row);
    return s.shown->changes->at(s.row);
}

bool TargetRowsModel::isGhost(int row) const {
    const Source s = resolve(row);
    return s.row >= static_cast<std::size_t>(s.shown->targetRows());
}

int TargetRowsModel::count(RowChange change) const {
    if (change == RowChange::Deleted)
        return static_cast<int>(m_shown.changes->ghostChangeRows.size());
    return static_cast<int>(
        std::count(m_shown.changes->rowChanges.begin(), m_shown.changes->rowChanges.end(), change));
}

int TargetRowsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : m_fetched;
}

int TargetRowsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_shown.snapshot->rows.columns.size());
}

bool TargetRowsModel::canFetchMore(const QModelIndex& parent) const {
    return !parent.isValid() && !m_announcing && m_fetched < totalRows();
}

void TargetRowsModel::fetchMore(const QModelIndex& parent) {
    if (!parent.isValid())
        fetchUpTo(m_fetched + FetchBatch - 1);
}

resulttext::CellRef TargetRowsModel::cell(int row, int column) const {
    const Source s = resolve(row);
    const TargetSnapshot& snapshot = *s.shown->snapshot;
    const std::size_t targetRows = snapshot.rows.rows.size();
    if (s.row < targetRows)
        return {&snapshot.rows, s.row, column};
    const int feedRow = s.shown->changes->ghostChangeRows[s.row - targetRows];
    return {&snapshot.changes, static_cast<std::size_t>(feedRow),
            s.shown->ghostColumns[static_cast<std::size_t>(column)]};
}

QVariant TargetRowsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = index.row();
    const RowChange change = rowChange(row);
    switch (role) {
    case Qt::DisplayRole:
        return cell(row, index.column()).text();
    case CellValueRole:
        return cell(row, index.column()).typed();
    case Qt::ToolTipRole:
        if (change == RowChange::None)
            return {};
        return tr("%1 by update %2")
            .arg(ChangePalette::label(change))
            .arg(resolve(row).shown->snapshot->updateId);
    case Qt::BackgroundRole: {
        const QColor c = ChangePalette::background(change, QGuiApplication::palette());
        return c.isValid() ? QVariant(c) : QVariant();
    }
    case Qt::ForegroundRole:
        return isGhost(row) ? QVariant(ChangePalette::ghostText(QGuiApplication::palette())) : QVariant();
    case Qt::FontRole:
        if (isGhost(row)) {
            QFont f;
            f.setStrikeOut(true);
            return f;
        }
        return {};
    case Qt::TextAlignmentRole:
        // Ghost rows share the target's column types, so the target's first row decides for them.
        {
            const Source s = resolve(row);
            return QVariant::fromValue(
                resulttext::cellAlignment(s.shown->snapshot->rows, isGhost(row) ? 0 : s.row, index.column()));
        }
    case RowChangeRole:
        return static_cast<int>(change);
    case GhostRole:
        return isGhost(row);
    case SourceRowRole:
        return row;
    default:
        return {};
    }
}

QVariant TargetRowsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal) {
        if (section < 0 || section >= columnCount())
            return {};
        const auto name =
            QString::fromStdString(m_shown.snapshot->rows.columns[static_cast<std::size_t>(section)]);
        if (role == Qt::DisplayRole)
            return name;
        if (role == Qt::ToolTipRole) {
            const auto type = m_shown.snapshot->rows.typeOf(static_cast<std::size_t>(section));
            QString tip =
                type ? QStringLiteral("%1 %2").arg(name, QString::fromStdString(type->toString())) : name;
            if (m_shown.snapshot->keyColumns.contains(name, Qt::CaseInsensitive))
                tip += tr(" (key)");
            return tip;
        }
        return {};
    }
    if (section < 0 || section >= m_fetched)
        return {};
    const RowChange change = rowChange(section);
    switch (role) {
    case Qt::DisplayRole:
        return isGhost(section) ? QStringLiteral("\u2013") : QString::number(section + 1);
    case Qt::DecorationRole:
        return change == RowChange::None ? QVariant() : QVariant(ChangePalette::chip(change));
    case Qt::ToolTipRole:
        return change == RowChange::None ? QVariant() : QVariant(ChangePalette::description(change));
    case RowChangeRole:
        return static_cast<int>(change);
    default:
        return {};
    }
}

} // namespace cdc::ui
