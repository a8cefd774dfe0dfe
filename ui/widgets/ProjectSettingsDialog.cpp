// An empty field means "the project's folder", so a project moved with its Volumes/ beside it keeps
// working; the placeholder says which folder that is now. The change is one undoable step (Project).
#include "ui/widgets/ProjectSettingsDialog.h"

#include "ui/model/Project.h"
#include "ui/model/ThemeColors.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace cdc::ui {

namespace {

QString projectFolder(const Project* project) {
    return project->filePath().isEmpty() ? QString() : QFileInfo(project->filePath()).absolutePath();
}

} // namespace

ProjectSettingsDialog::ProjectSettingsDialog(Project* project, QWidget* parent)
    : QDialog(parent), m_project(project), m_volumes(new QLineEdit(this)),
      m_browse(new QPushButton(tr("&Browse…"), this)),
      m_default(new QPushButton(tr("Use &Project Folder"), this)), m_preview(new QLabel(this)),
      m_error(new QLabel(this)), m_queryTimeout(new QSpinBox(this)) {
    setWindowTitle(tr("Project Settings"));
    auto* layout = new QVBoxLayout(this);
    auto* intro =
        new QLabel(tr("Pipelines read files by their volume path, "
                      "<code>/Volumes/&lt;catalog&gt;/&lt;schema&gt;/&lt;volume&gt;/…</code>. CDC Studio "
                      "reads them from the <code>Volumes</code> folder inside the folder below, and "
                      "nothing outside it."),
                   this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    const QString folder = projectFolder(project);
    m_volumes->setPlaceholderText(folder.isEmpty() ? tr("The project's folder (save the project first)")
                                                   : tr("The project's folder: %1").arg(folder));
    m_volumes->setText(project->volumesSetting());
    m_volumes->setMinimumWidth(m_volumes->fontMetrics().averageCharWidth() * 48);
    m_browse->setAutoDefault(false);
    m_default->setAutoDefault(false);
    auto* row = new QHBoxLayout;
    row->addWidget(m_volumes, 1);
    row->addWidget(m_browse);
    row->addWidget(m_default);
    auto* label = new QLabel(tr("&Volumes folder:"), this);
    label->setBuddy(m_volumes); // Alt+V
    auto* form = new QFormLayout;
    form->addRow(label, row);
    form->addRow(tr("Files are read from:"), m_preview);
    layout->addLayout(form);
    m_queryTimeout->setRange(1, Project::kMaxQueryTimeoutSeconds);
    m_queryTimeout->setSuffix(tr(" s"));
    m_queryTimeout->setValue(
        int(std::chrono::duration_cast<std::chrono::seconds>(project->queryTimeout()).count()));
    m_queryTimeout->setToolTip(
        tr("How long the result views may read the targets before they stop (Cancel in "
           "the status bar, or Esc, stops them sooner)"));
    auto* timeoutLabel = new QLabel(tr("Query &time limit:"), this);
    timeoutLabel->setBuddy(m_queryTimeout); // Alt+T
    form->addRow(timeoutLabel, m_queryTimeout);
    m_preview->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setWordWrap(true);
    QPalette errorPalette = m_error->palette();
    errorPalette.setColor(QPalette::WindowText, themecolors::error(palette()));
    m_error->setPalette(errorPalette);
    m_error->hide();
    layout->addWidget(m_error);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &ProjectSettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);

    m_chooser = [this](const QString& current) {
        return QFileDialog::getExistingDirectory(this, tr("Volumes Folder"), current);
    };
    connect(m_browse, &QPushButton::clicked, this, [this] {
        const QString current = m_volumes->text().isEmpty() ? projectFolder(m_project) : m_volumes->text();
        const QString chosen = m_chooser(current);
        if (!chosen.isEmpty())
            m_volumes->setText(QDir::toNativeSeparators(chosen));
    });
    connect(m_default, &QPushButton::clicked, m_volumes, &QLineEdit::clear);
    connect(m_volumes, &QLineEdit::textChanged, this, &ProjectSettingsDialog::updatePreview);
    updatePreview();
}

void ProjectSettingsDialog::updatePreview() {
    m_error->hide();
    const QString folder =
        m_volumes->text().trimmed().isEmpty() ? projectFolder(m_project) : m_volumes->text().trimmed();
    m_preview->setText(folder.isEmpty()
                           ? tr("nowhere yet: save the project or choose a folder")
                           : QDir::toNativeSeparators(QDir(folder).filePath(QStringLiteral("Volumes"))));
}

void ProjectSettingsDialog::accept() {
    QString folder = m_volumes->text().trimmed();
    if (!folder.isEmpty()) {
        if (!QFileInfo(folder).isDir()) {
            m_error->setText(tr("'%1' is not a folder.").arg(folder));
            m_error->show();
            return;
        }
        folder = QFileInfo(folder).absoluteFilePath();
    }
    if (m_queryTimeout->value() * 1000 != m_project->queryTimeout().count()) {
        if (auto st = m_project->setQueryTimeoutSetting(m_queryTimeout->value()); !st) {
            m_error->setText(QString::fromStdString(st.error().message));
            m_error->show();
            return;
        }
    }
    if (folder != m_project->volumesSetting()) {
        if (auto st = m_project->setVolumesSetting(folder); !st) {
            m_error->setText(QString::fromStdString(st.error().message));
            m_error->show();
            return;
        }
    }
    QDialog::accept();
}

} // namespace cdc::ui
