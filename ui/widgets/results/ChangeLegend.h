#pragma once
/// The colour key of the change highlights: a chip and a name per kind, optionally with counts.

#include "ui/model/results/RowChange.h"

#include <QMap>
#include <QWidget>

class QLabel;

namespace cdc::ui {

class ChangeLegend : public QWidget {
    Q_OBJECT
public:
    explicit ChangeLegend(const QList<RowChange>& kinds = ChangePalette::changes(),
                          QWidget* parent = nullptr);

    /// Shows "Inserted 2" style counts; kinds missing from `counts` show their bare name.
    void setCounts(const QMap<RowChange, int>& counts);
    /// The text of one entry (for tests).
    QString entryText(RowChange kind) const;

private:
    QMap<RowChange, QLabel*> m_labels;
};

} // namespace cdc::ui
