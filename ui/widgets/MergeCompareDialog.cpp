// The comparison runs on a copy of the working database taken when it starts, so an update made meanwhile
// changes nothing of it; the project's next change compares again.
#include "ui/widgets/MergeCompareDialog.h"

#include "ui/model/Project.h"
#include "ui/model/results/MergeTableModel.h"
#include "ui/model/results/RowChange.h"
#include "ui/widgets/CodeEditor.h"

#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QGuiApplication>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QStandardPaths>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <utility>

namespace cdc::ui {

namespace {

QTableView* tableView(MergeTableModel* model, const QString& name, QWidget* parent) {
    auto* view = new QTableView(parent);
    view->setObjectName(name);
    view->setModel(model);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->horizontalHeader()->setStretchLastSection(true);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    return view;
}

QGroupBox* titled(const QString& title, QWidget* content, QWidget* parent) {
    auto* box = new QGroupBox(title, parent);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(content);
    return box;
}

/// A swatch of `change`'s row tint and what it means.
QString legendEntry(RowChange change, const QString& text) {
    const QColor tint = ChangePalette::background(change, QGuiApplication::palette());
    const QColor edge = ChangePalette::accent(change);
    return QStringLiteral(
               "<span style=\"background-color:%1; border:1px solid %2\">&nbsp;&nbsp;&nbsp;&nbsp;</span>"
               "&nbsp;%3")
        .arg(tint.name(), edge.name(), text.toHtmlEscaped());
}

} // namespace

MergeCompareDialog::MergeCompareDialog(Project* project, QWidget* parent)
    : QDialog(parent), m_project(project), m_target(new QComboBox(this)), m_summary(new QLabel(this)),
      m_sql(new CodeEditor(this)), m_autoCdcModel(new MergeTableModel(MergeTableModel::Side::AutoCdc, this)),
      m_mergeModel(new MergeTableModel(MergeTableModel::Side::Merge, this)),
      m_autoCdcView(tableView(m_autoCdcModel, QStringLiteral("autoCdcView"), this)),
      m_mergeView(tableView(m_mergeModel, QStringLiteral("mergeView"), this)),
      m_copy(new QPushButton(tr("&Copy SQL"), this)), m_export(new QPushButton(tr("&Export SQL…"), this)) {
    setWindowTitle(tr("Compare with MERGE"));
    setObjectName(QStringLiteral("mergeCompareDialog"));
    auto* layout = new QVBoxLayout(this);
    auto* intro =
        new QLabel(tr("The MERGE INTO a data engineer writes without AUTO CDC, run on the events the "
                      "updates delivered, batch by batch in their arrival order (in a scratch copy: "
                      "the project is not changed). It compares no stored sequence and keeps no "
                      "tombstones, so late events change its table."),
                   this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    m_target->setObjectName(QStringLiteral("targetBox"));
    auto* form = new QFormLayout;
    form->addRow(tr("AUTO CDC &target:"), m_target);
    layout->addLayout(form);

    m_summary->setObjectName(QStringLiteral("summaryLabel"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_summary);

    m_sql->setObjectName(QStringLiteral("sqlView"));
    m_sql->setReadOnly(true);
    auto* tables = new QSplitter(Qt::Horizontal, this);
    tables->addWidget(titled(tr("AUTO CDC"), m_autoCdcView, tables));
    tables->addWidget(titled(tr("Hand-written MERGE"), m_mergeView, tables));
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(titled(tr("MERGE (Databricks SQL)"), m_sql, split));
    split->addWidget(tables);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    layout->addWidget(split, 1);

    auto* legend = new QLabel(this);
    legend->setObjectName(QStringLiteral("legendLabel"));
    legend->setTextFormat(Qt::RichText);
    legend->setText(
        legendEntry(RowChange::Deleted, tr("row only on this side")) +
        QStringLiteral("&nbsp;&nbsp;&nbsp;&nbsp;") +
        legendEntry(RowChange::Updated, tr("cell differs from the other side's row of the same key")));
    layout->addWidget(legend);

    m_copy->setObjectName(QStringLiteral("copyButton"));
    m_copy->setToolTip(tr("Copy the MERGE statements to the clipboard"));
    m_export->setObjectName(QStringLiteral("exportButton"));
    m_export->setIcon(style()->standardIcon(QStyle::SP_DialogSaveButton));
    m_export->setToolTip(tr("Save the MERGE statements as a Databricks SQL file"));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_copy, QDialogButtonBox::ActionRole);
    buttons->addButton(m_export, QDialogButtonBox::ActionRole);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_copy, &QPushButton::clicked, this, [this] {
        if (!m_comparison)
            return;
        QGuiApplication::clipboard()->setText(QString::fromStdString(m_comparison->sql));
        emit statusMessage(tr("MERGE SQL copied"));
    });
    connect(m_export, &QPushButton::clicked, this, &MergeCompareDialog::exportWithDialog);
    connect(m_target, &QComboBox::currentTextChanged, this, &MergeCompareDialog::compare);
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, &MergeCompareDialog::takeResult);
    connect(m_project, &Project::dataChanged, this, [this] {
        if (isVisible())
            refresh();
    });
    m_copy->setEnabled(false);
    m_export->setEnabled(false);
    resize(1000, 720);
}

MergeCompareDialog::~MergeCompareDialog() {
    m_watcher.waitForFinished();
}

void MergeCompareDialog::showEvent(QShowEvent* event) {
    QDialog::showEvent(event);
    refresh();
}

void MergeCompareDialog::refresh() {
    const QString chosen = m_target->currentText();
    QStringList targets;
    for (const std::string& t : engine::mergeComparableTargets(m_project->document()->pipeline()))
        targets << QString::fromStdString(t);
    if (targets != QStringList([this] {
            QStringList shown;
            for (int i = 0; i < m_target->count(); ++i)
                shown << m_target->itemText(i);
            return shown;
        }())) {
        const QSignalBlocker block(m_target);
        m_target->clear();
        m_target->addItems(targets);
        m_target->setCurrentIndex(std::max(0, int(targets.indexOf(chosen))));
    }
    compare();
}

void MergeCompareDialog::compare() {
    if (isRunning()) {
        m_again = true;
        return;
    }
    const auto fail = [this](const QString& why) {
        m_summary->setText(why);
        m_comparison.reset();
        m_autoCdcModel->setComparison(nullptr);
        m_mergeModel->setComparison(nullptr);
        m_sql->setText(QString());
        m_copy->setEnabled(false);
        m_export->setEnabled(false);
        emit finished();
    };
    const QString target = m_target->currentText();
    if (target.isEmpty())
        return fail(tr("The pipeline has no AUTO CDC target fed by a change feed."));
    if (m_project->isBusy())
        return fail(tr("An update is running: the comparison follows when it has finished."));
    if (m_project->document()->hasErrors())
        return fail(tr("The pipeline has errors (see Issues): fix them to compare with a MERGE."));
    auto copy = m_project->snapshot();
    if (!copy)
        return fail(QString::fromStdString(copy.error().format()));
    m_summary->setText(tr("Running the MERGE on the delivered events…"));
    m_watcher.setFuture(
        QtConcurrent::run([db = std::move(copy).value(), declared = m_project->document()->pipeline(),
                           name = target.toStdString()]() -> Outcome {
            return {engine::compareWithMerge(*db, declared, name)};
        }));
}

void MergeCompareDialog::takeResult() {
    if (m_watcher.future().resultCount() == 0)
        return;
    Outcome out = m_watcher.result();
    if (std::exchange(m_again, false)) {
        compare();
        return;
    }
    if (!out.comparison) {
        m_summary->setText(
            tr("The comparison failed: %1").arg(QString::fromStdString(out.comparison.error().format())));
        emit statusMessage(tr("Comparison with MERGE failed"));
        emit finished();
        return;
    }
    m_comparison = std::make_shared<const engine::MergeComparison>(std::move(out.comparison).value());
    m_autoCdcModel->setComparison(m_comparison);
    m_mergeModel->setComparison(m_comparison);
    m_autoCdcView->resizeColumnsToContents();
    m_mergeView->resizeColumnsToContents();
    if (m_sql->text() != QString::fromStdString(m_comparison->sql))
        m_sql->setText(QString::fromStdString(m_comparison->sql));
    const QString summary = QString::fromStdString(m_comparison->summary());
    QStringList lines{
        summary +
        tr(" (%1 update(s) replayed, %2 event(s)).").arg(m_comparison->updates).arg(m_comparison->events)};
    for (const auto& d : m_comparison->differences)
        lines << QStringLiteral("• ") + QString::fromStdString(m_comparison->describe(d));
    m_summary->setText(lines.join(QLatin1Char('\n')));
    m_copy->setEnabled(true);
    m_export->setEnabled(true);
    emit statusMessage(summary);
    emit finished();
}

bool MergeCompareDialog::exportSql(const QString& path) {
    if (!m_comparison)
        return false;
    QSaveFile file(path);
    const QByteArray sql = QByteArray::fromStdString(m_comparison->sql);
    if (!file.open(QIODevice::WriteOnly) || file.write(sql) != sql.size() || !file.commit()) {
        m_summary->setText(tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
        return false;
    }
    emit statusMessage(tr("MERGE SQL exported to %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

void MergeCompareDialog::exportWithDialog() {
    if (!m_comparison)
        return;
    const QString suggested =
        QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation) +
        QStringLiteral("/merge_%1.sql").arg(QString::fromStdString(m_comparison->target));
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export MERGE SQL"), suggested, tr("SQL files (*.sql)"));
    if (!path.isEmpty())
        exportSql(path);
}

} // namespace cdc::ui
