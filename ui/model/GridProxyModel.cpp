// Where the grid's sort and filter spend their time: sort keys read once per sort, ASCII folded
// without QString, a substring matcher instead of a regular expression, one layout change per filter.
#include "ui/model/GridProxyModel.h"

#include "ui/model/results/ResultText.h"

#include <cctype>

namespace cdc::ui {

GridProxyModel::GridProxyModel(QObject* parent) : QSortFilterProxyModel(parent) {
    m_matcher.setCaseSensitivity(Qt::CaseInsensitive);
}

void GridProxyModel::setSourceModel(QAbstractItemModel* source) {
    disconnect(m_sourceReset);
    QSortFilterProxyModel::setSourceModel(source);
    // Connected after the base class's own handler, so the proxy has taken the reset in when the rest
    // of a lazily fetching model arrives; a sort or a filter then still covers every row.
    if (source)
        m_sourceReset = connect(source, &QAbstractItemModel::modelReset, this, [this] {
            if (isSorted() || isFiltering())
                fetchAll();
        });
}

void GridProxyModel::setFilterText(const QString& text) {
    if (text == m_filterText)
        return;
    m_filterText = text;
    m_matcher.setPattern(text);
    if (!text.isEmpty())
        fetchAll();
    // One layout change rather than invalidateFilter()'s insert and remove per run of rows: a filter
    // that lets every other row of 100,000 back in would announce 50,000 inserts.
    invalidate();
    emit filterTextChanged(text);
}

void GridProxyModel::sort(int column, Qt::SortOrder order) {
    QAbstractItemModel* source = sourceModel();
    if (column >= 0 && source) {
        fetchAll();
        m_sortKeys.reserve(static_cast<std::size_t>(source->rowCount()));
        for (int r = 0; r < source->rowCount(); ++r)
            m_sortKeys.push_back(cellAt(source->index(r, column)));
    }
    QSortFilterProxyModel::sort(column, order);
    m_sortKeys = {};
}

void GridProxyModel::fetchAll() {
    QAbstractItemModel* source = sourceModel();
    while (source && source->canFetchMore({}))
        source->fetchMore({});
}

CellValue GridProxyModel::cellAt(const QModelIndex& sourceIndex) {
    const QVariant typed = sourceIndex.data(CellValueRole);
    if (typed.canConvert<CellValue>())
        return typed.value<CellValue>();
    return {sourceIndex.data(Qt::DisplayRole).toString().toStdString(), std::nullopt};
}

namespace {
/// Case-insensitive order of two UTF-8 strings; ASCII without converting (a sort compares a few
/// million times), anything else through QString.
int compareFolded(const std::string& a, const std::string& b) {
    const std::size_t n = std::min(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i) {
        const auto ca = static_cast<unsigned char>(a[i]), cb = static_cast<unsigned char>(b[i]);
        if (ca >= 0x80 || cb >= 0x80) {
            const int c = QString::fromStdString(a).compare(QString::fromStdString(b), Qt::CaseInsensitive);
            return c < 0 ? -1 : (c > 0 ? 1 : 0);
        }
        const int la = std::tolower(ca), lb = std::tolower(cb);
        if (la != lb)
            return la < lb ? -1 : 1;
    }
    return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}
} // namespace

int GridProxyModel::compare(const CellValue& a, const CellValue& b) {
    const auto* ta = std::get_if<std::string>(&a.value);
    const auto* tb = std::get_if<std::string>(&b.value);
    if (ta && tb)
        if (const int folded = compareFolded(*ta, *tb); folded != 0)
            return folded;
    return resulttext::compareValues(a.value, b.value);
}

bool GridProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    // A plain substring search: the base class's regular expression costs several times more on the
    // 100,000 rows of a large target, and a filter runs again on every key typed.
    if (m_filterText.isEmpty())
        return true;
    const QAbstractItemModel* source = sourceModel();
    for (int c = 0; c < source->columnCount(sourceParent); ++c)
        if (m_matcher.indexIn(source->index(sourceRow, c, sourceParent).data().toString()) >= 0)
            return true;
    return false;
}

bool GridProxyModel::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    const auto keys = m_sortKeys.size();
    if (static_cast<std::size_t>(left.row()) < keys && static_cast<std::size_t>(right.row()) < keys)
        return compare(m_sortKeys[static_cast<std::size_t>(left.row())],
                       m_sortKeys[static_cast<std::size_t>(right.row())]) < 0;
    return compare(cellAt(left), cellAt(right)) < 0;
}

} // namespace cdc::ui
