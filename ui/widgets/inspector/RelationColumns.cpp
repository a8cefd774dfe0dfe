#include "ui/widgets/inspector/RelationColumns.h"

#include "core/storage/Catalog.h"
#include "ui/model/Project.h"

namespace cdc::ui::relationcolumns {

QStringList relationNames(Project& project) {
    QStringList names;
    const auto add = [&](const std::string& name) {
        const QString q = QString::fromStdString(name);
        if (!names.contains(q, Qt::CaseInsensitive))
            names << q;
    };
    const pipeline::Pipeline& pipeline = project.document()->pipeline();
    for (const auto& view : pipeline.views)
        add(view.name.name);
    for (const auto& table : pipeline.streamingTables)
        add(table.name.name);
    if (auto tables = storage::Catalog::list(project.db()); tables.ok())
        for (const auto& table : *tables)
            add(table.name);
    names.sort(Qt::CaseInsensitive);
    return names;
}

QStringList columnsOf(Project& project, const std::string& relation) {
    QStringList columns;
    if (const auto* view = project.document()->pipeline().findView(relation)) {
        const auto& output = view->query.outputColumns;
        // "*" stands for columns only a run can tell; the catalog may know them from the last one.
        if (std::find(output.begin(), output.end(), "*") == output.end()) {
            for (const auto& column : output)
                columns << QString::fromStdString(column);
            return columns;
        }
    }
    auto table = storage::Catalog::find(project.db(), relation);
    if (table.ok() && table->has_value())
        for (const auto& column : (*table)->columns)
            columns << QString::fromStdString(column.name);
    return columns;
}

} // namespace cdc::ui::relationcolumns
