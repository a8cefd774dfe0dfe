#pragma once
/// Which source columns a pipeline reads as a change event's operation and sequence, so that the event
/// queue can show them in columns of their own: they are what users reorder events by.

#include "core/pipeline/Pipeline.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace cdc::ui {

/// Column names of one source table, empty where the pipeline does not say.
struct EventColumns {
    QString operation; ///< the column APPLY AS DELETE WHEN (or else TRUNCATE WHEN) tests
    QString sequence;  ///< the SEQUENCE BY column (the first field of a STRUCT sequence)
    bool operator==(const EventColumns&) const = default;
};

class EventColumnRoles {
public:
    EventColumnRoles() = default;
    /// Reads every AUTO CDC flow, following views that read one relation down to the base table.
    static EventColumnRoles fromPipeline(const pipeline::Pipeline& pipeline);

    /// The roles of `source` (a catalog name, matched like the catalog resolves names: exactly or by
    /// unique `.suffix`) among its `columns`; names are returned as `columns` spells them.
    EventColumns rolesFor(const QString& source, const QStringList& columns) const;

    bool operator==(const EventColumnRoles&) const = default;

private:
    struct Entry {
        QString source;        ///< base table as the pipeline names it
        QString sequence;      ///< column name
        QString operationText; ///< Spark text of the delete (or truncate) condition
        bool operator==(const Entry&) const = default;
    };
    QList<Entry> m_entries;
};

} // namespace cdc::ui
