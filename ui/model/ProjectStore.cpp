// Queued rows are JSON arrays because one queue holds rows of differently shaped tables; REALs and
// BLOBs are wrapped so 1.0 and bytes come back as they went in. `__cdc_delivery` remembers the source row
// each delivered event became, so a rewind can take it back and requeue the event at the front. A step
// (a whole source script as one event) is a JSON object instead, and its delivery keeps the rows of the
// tables it writes as they were before, with their rowids: restoring them is exact whatever the script
// did, and later row deliveries keep pointing at the right rows.
#include "ui/model/ProjectStore.h"

#include "core/sql/SqlApi.h"
#include "core/storage/Catalog.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <map>
#include <string_view>
#include <vector>

namespace cdc::ui::projectstore {

using storage::Database;

Status ensureSchema(Database& db) {
    CDC_TRY(storage::Catalog::ensureSchema(db));
    CDC_TRY(storage::projectsettings::ensureSchema(db));
    CDC_TRY(db.exec(R"sql(
CREATE TABLE IF NOT EXISTS __cdc_event_queue(
  id       INTEGER PRIMARY KEY,
  position INTEGER NOT NULL,
  source   TEXT NOT NULL,
  row_json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS __cdc_delivery(
  id             INTEGER PRIMARY KEY,
  update_id      INTEGER,
  source         TEXT NOT NULL,
  source_rowid   INTEGER NOT NULL,
  row_json       TEXT NOT NULL,
  queue_id       INTEGER,
  queue_position INTEGER
);
)sql"));
    // Files from before the queue origin was kept gain its columns (NULL: "put back before the head").
    if (!db.tableExists("__cdc_delivery_update")) {
        auto columns = db.prepare("SELECT count(*) FROM pragma_table_info('__cdc_delivery') "
                                  "WHERE name = 'queue_id'");
        if (!columns)
            return columns.error();
        if (auto has = columns->step(); !has)
            return has.error();
        if (columns->int64(0) == 0)
            CDC_TRY(db.exec("ALTER TABLE __cdc_delivery ADD COLUMN queue_id INTEGER;"
                            "ALTER TABLE __cdc_delivery ADD COLUMN queue_position INTEGER"));
    }
    // A step reads the head of the queue and attributes the rows it delivered: without these both read
    // the whole queue and every delivery ever made, and a step on a long history cost what the history
    // holds (docs/performance.md, "A step in the app").
    return db.exec("CREATE INDEX IF NOT EXISTS __cdc_event_queue_order ON __cdc_event_queue(position, id);"
                   "CREATE INDEX IF NOT EXISTS __cdc_delivery_update ON __cdc_delivery(update_id)");
}

std::optional<QString> value(const Database& db, const char* key) {
    auto text = storage::projectsettings::value(db, key);
    return text ? std::optional<QString>(QString::fromStdString(*text)) : std::nullopt;
}

QString value(const Database& db, const char* key, const QString& fallback) {
    return value(db, key).value_or(fallback);
}

qint64 intValue(const Database& db, const char* key, qint64 fallback) {
    bool ok = false;
    const qint64 v = value(db, key, QString()).toLongLong(&ok);
    return ok ? v : fallback;
}

Status setValue(Database& db, const char* key, const QString& text) {
    return storage::projectsettings::setValue(db, key, text.toStdString());
}

namespace {

QJsonArray rowArray(const cdc::Row& row) {
    QJsonArray array;
    for (const auto& v : row) {
        if (std::holds_alternative<std::int64_t>(v))
            array.append(QJsonValue(static_cast<qint64>(std::get<std::int64_t>(v))));
        else if (std::holds_alternative<double>(v))
            array.append(QJsonObject{{"real", std::get<double>(v)}});
        else if (std::holds_alternative<std::string>(v))
            array.append(QString::fromStdString(std::get<std::string>(v)));
        else if (std::holds_alternative<Blob>(v)) {
            const auto& bytes = std::get<Blob>(v).bytes;
            QByteArray raw(reinterpret_cast<const char*>(bytes.data()), static_cast<qsizetype>(bytes.size()));
            array.append(QJsonObject{{"blob", QString::fromLatin1(raw.toBase64())}});
        } else
            array.append(QJsonValue::Null);
    }
    return array;
}

cdc::Row rowFromArray(const QJsonArray& array) {
    cdc::Row row;
    for (const auto& item : array) {
        if (item.isString())
            row.emplace_back(item.toString().toStdString());
        else if (item.isDouble()) {
            const double d = item.toDouble();
            const qint64 i = item.toInteger();
            if (static_cast<double>(i) == d)
                row.emplace_back(static_cast<std::int64_t>(i));
            else
                row.emplace_back(d);
        } else if (item.isObject() && item.toObject().contains("real"))
            row.emplace_back(item.toObject().value("real").toDouble());
        else if (item.isObject() && item.toObject().contains("blob")) {
            const QByteArray raw =
                QByteArray::fromBase64(item.toObject().value("blob").toString().toLatin1());
            row.emplace_back(Blob{std::vector<unsigned char>(raw.begin(), raw.end())});
        } else
            row.emplace_back(std::monostate{});
    }
    return row;
}

QString compact(const QJsonObject& object) {
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

/// What `__cdc_event_queue.row_json` holds: the row's values, or the step's script and label.
QString encodePayload(const QueuedEvent& event) {
    if (!event.isStep())
        return encodeRow(event.values);
    return compact(QJsonObject{{"script", event.script}, {"label", event.label}});
}

/// A queued event from its stored payload, as UTF-8 (the database's own bytes: no round trip through
/// UTF-16, which was a tenth of a delivery).
QueuedEvent decodeEvent(qint64 id, const QString& source, std::string_view json) {
    const QJsonDocument doc =
        QJsonDocument::fromJson(QByteArray::fromRawData(json.data(), static_cast<qsizetype>(json.size())));
    if (doc.isObject()) {
        const QJsonObject step = doc.object();
        return QueuedEvent::step(id, step.value("script").toString(), step.value("label").toString());
    }
    return QueuedEvent::row(id, source, rowFromArray(doc.array()));
}

Result<std::int64_t> scalar(const Database& db, const std::string& sql) {
    auto stmt = db.prepare(sql);
    if (!stmt)
        return stmt.error();
    if (auto has = stmt->step(); !has)
        return has.error();
    return stmt->int64(0);
}

std::string columnList(const storage::TableInfo& table) {
    std::string list = "rowid";
    for (const auto& c : table.columns)
        list += ", " + storage::quoteIdentifier(c.name);
    return list;
}

/// The INSERT of `__cdc_delivery` rows, prepared once for a whole delivery. `updateId`: the update the
/// rows are delivered to, when known beforehand (assignDeliveries then has nothing to rewrite), else NULL.
class DeliveryWriter {
public:
    static Result<DeliveryWriter> prepare(Database& db, std::optional<qint64> updateId) {
        auto stmt =
            db.prepare("INSERT INTO __cdc_delivery(update_id, source, source_rowid, row_json, queue_id, "
                       "queue_position) VALUES(?, ?, ?, ?, ?, ?)");
        if (!stmt)
            return stmt.error();
        return DeliveryWriter(std::move(stmt).value(), updateId);
    }

    Status add(std::string_view source, qint64 rowid, std::string_view json,
               const std::optional<QueueOrigin>& origin) {
        m_insert.reset();
        if (m_updateId)
            m_insert.bind(1, static_cast<std::int64_t>(*m_updateId));
        else
            m_insert.bindNull(1);
        m_insert.bind(2, source).bind(3, static_cast<std::int64_t>(rowid)).bind(4, json);
        if (origin)
            m_insert.bind(5, static_cast<std::int64_t>(origin->id))
                .bind(6, static_cast<std::int64_t>(origin->position));
        else
            m_insert.bindNull(5).bindNull(6);
        return m_insert.run();
    }

private:
    DeliveryWriter(storage::Statement insert, std::optional<qint64> updateId)
        : m_insert(std::move(insert)), m_updateId(updateId) {}
    storage::Statement m_insert;
    std::optional<qint64> m_updateId;
};

/// Runs a step's script after keeping every row of the tables it writes (rowid first) and how far the
/// source-change log went, so undeliverStep can put both back.
Status deliverStep(Database& db, DeliveryWriter& deliveries, const QueuedEvent& event, qint64 position) {
    const std::string script = event.script.toStdString();
    const std::string file = "step-" + std::to_string(event.id) + ".sql";
    auto written = sql::sourceScriptWrites(script, file);
    if (!written)
        return written.error();
    QJsonArray before;
    for (const auto& name : *written) {
        auto table = storage::Catalog::find(db, name);
        if (!table)
            return table.error();
        if (!*table || (*table)->kind != storage::TableKind::Source)
            continue; // the executor reports it, at its position
        auto stmt = db.prepare("SELECT " + columnList(**table) + " FROM " +
                               storage::quoteIdentifier((*table)->sqliteName) + " ORDER BY rowid");
        if (!stmt)
            return stmt.error();
        QJsonArray rows;
        CDC_TRY(stmt->forEachRow([&](const storage::Statement& row) { rows.append(rowArray(row.row())); }));
        before.append(QJsonObject{{"table", QString::fromStdString((*table)->name)}, {"rows", rows}});
    }
    std::int64_t changesMark = 0;
    if (db.tableExists("__cdc_source_changes")) {
        auto mark = scalar(db, "SELECT COALESCE(MAX(seq), 0) FROM __cdc_source_changes");
        if (!mark)
            return mark.error();
        changesMark = *mark;
    }
    CDC_TRY(sql::executeSourceScript(db, script, file));
    const QJsonObject record{{"script", event.script},
                             {"label", event.label},
                             {"before", before},
                             {"changesMark", static_cast<qint64>(changesMark)}};
    return deliveries.add({}, 0, compact(record).toStdString(), QueueOrigin{event.id, position});
}

/// Puts back the rows a step's tables had before it ran, and forgets the source changes it logged.
Status undeliverStep(Database& db, const QJsonObject& record) {
    for (const auto& item : record.value("before").toArray()) {
        const QJsonObject entry = item.toObject();
        auto table = storage::Catalog::find(db, entry.value("table").toString().toStdString());
        if (!table)
            return table.error();
        if (!*table)
            continue; // dropped since: nothing to restore
        const storage::TableInfo& info = **table;
        CDC_TRY(db.exec("DELETE FROM " + storage::quoteIdentifier(info.sqliteName)));
        std::string params = "?";
        for (std::size_t i = 0; i < info.columns.size(); ++i)
            params += ", ?";
        auto insert = db.prepare("INSERT INTO " + storage::quoteIdentifier(info.sqliteName) + "(" +
                                 columnList(info) + ") VALUES(" + params + ")");
        if (!insert)
            return insert.error();
        for (const auto& rowItem : entry.value("rows").toArray()) {
            const cdc::Row row = rowFromArray(rowItem.toArray());
            if (row.size() != info.columns.size() + 1)
                return Diagnostic::error("EVENT_SHAPE",
                                         "the rows kept for '" + info.name + "' no longer match its columns");
            insert->reset();
            for (std::size_t i = 0; i < row.size(); ++i)
                insert->bind(static_cast<int>(i) + 1, row[i]);
            CDC_TRY(insert->run());
        }
    }
    if (!db.tableExists("__cdc_source_changes"))
        return {};
    auto clear = db.prepare("DELETE FROM __cdc_source_changes WHERE seq > ?");
    if (!clear)
        return clear.error();
    clear->bind(1, static_cast<std::int64_t>(record.value("changesMark").toInteger()));
    return clear->run();
}

/// A queued event as stored: its payload not decoded yet.
struct StoredEvent {
    qint64 id;
    QString source;
    std::string payload; ///< UTF-8, as stored
    qint64 position;
};

/// The first `count` events of the queue (all: -1), in queue order, through the (position, id) index.
Result<std::vector<StoredEvent>> readQueueHead(const Database& db, int count) {
    auto stmt = db.prepare(
        "SELECT id, source, row_json, position FROM __cdc_event_queue ORDER BY position, id LIMIT ?");
    if (!stmt)
        return stmt.error();
    stmt->bind(1, static_cast<std::int64_t>(count));
    std::vector<StoredEvent> out;
    CDC_TRY(stmt->forEachRow([&out](const storage::Statement& row) {
        out.push_back({row.int64(0), QString::fromStdString(row.text(1)), row.text(2), row.int64(3)});
    }));
    return out;
}

/// A source table's prepared INSERT of all its columns.
struct SourceInsert {
    std::string name; ///< as the catalog spells it
    std::size_t columns = 0;
    storage::Statement insert;
};

Result<SourceInsert> prepareSourceInsert(Database& db, const QString& source, qint64 eventId) {
    auto table = storage::Catalog::find(db, source.toStdString());
    if (!table)
        return table.error();
    if (!*table)
        return Diagnostic::error("UNKNOWN_SOURCE", "event " + std::to_string(eventId) +
                                                       " targets the unknown source table '" +
                                                       source.toStdString() + "'");
    const auto& info = **table;
    std::string sql = "INSERT INTO " + storage::quoteIdentifier(info.sqliteName) + "(";
    std::string params;
    for (std::size_t i = 0; i < info.columns.size(); ++i) {
        sql += (i ? ", " : "") + storage::quoteIdentifier(info.columns[i].name);
        params += i ? ", ?" : "?";
    }
    auto insert = db.prepare(sql + ") VALUES(" + params + ")");
    if (!insert)
        return insert.error();
    return SourceInsert{info.name, info.columns.size(), std::move(insert).value()};
}

struct Requeued {
    QueuedEvent event;
    std::optional<QueueOrigin> origin; ///< unknown for deliveries recorded by older versions
};

/// Puts delivered events back in front of the queue, in the order given. Each gets the id and position it
/// had when it was delivered if the queue still leaves room for them (undoing a run right after it: the
/// queue is then exactly as before); otherwise new ids, or positions just ahead of the current head. Only
/// the events put back are written: the waiting ones keep their rows.
Status requeueAtFront(Database& db, const QList<Requeued>& back) {
    auto min = db.prepare("SELECT MIN(position) FROM __cdc_event_queue");
    if (!min)
        return min.error();
    if (auto has = min->step(); !has)
        return has.error();
    const std::optional<qint64> head = min->isNull(0) ? std::nullopt : std::optional<qint64>(min->int64(0));
    bool originalPositions = true;
    std::optional<qint64> previous;
    for (const Requeued& r : back) {
        if (!r.origin || (head && r.origin->position >= *head) ||
            (previous && r.origin->position <= *previous))
            originalPositions = false;
        previous = r.origin ? std::optional<qint64>(r.origin->position) : std::nullopt;
    }
    auto taken = db.prepare("SELECT 1 FROM __cdc_event_queue WHERE id = ?");
    auto insert =
        db.prepare("INSERT INTO __cdc_event_queue(id, position, source, row_json) VALUES(?, ?, ?, ?)");
    if (!taken)
        return taken.error();
    if (!insert)
        return insert.error();
    qint64 position = head.value_or(1) - static_cast<qint64>(back.size());
    for (const Requeued& r : back) {
        insert->reset();
        bool idFree = false;
        if (r.origin) {
            taken->reset();
            taken->bind(1, static_cast<std::int64_t>(r.origin->id));
            auto has = taken->step();
            if (!has)
                return has.error();
            idFree = !*has;
        }
        if (idFree)
            insert->bind(1, static_cast<std::int64_t>(r.origin->id));
        else
            insert->bindNull(1);
        insert->bind(2, static_cast<std::int64_t>(originalPositions ? r.origin->position : position++))
            .bind(3, cdc::Value(r.event.source.toStdString()))
            .bind(4, cdc::Value(encodePayload(r.event).toStdString()));
        CDC_TRY(insert->run());
    }
    return {};
}

} // namespace

QString encodeRow(const cdc::Row& row) {
    return QString::fromUtf8(QJsonDocument(rowArray(row)).toJson(QJsonDocument::Compact));
}

cdc::Row decodeRow(const QString& json) {
    return rowFromArray(QJsonDocument::fromJson(json.toUtf8()).array());
}

Result<QList<std::pair<QueuedEvent, qint64>>> queueHead(const Database& db, int count) {
    auto stored = readQueueHead(db, count);
    if (!stored)
        return stored.error();
    QList<std::pair<QueuedEvent, qint64>> out;
    out.reserve(static_cast<qsizetype>(stored->size()));
    for (const StoredEvent& e : *stored)
        out.append({decodeEvent(e.id, e.source, e.payload), e.position});
    return out;
}

Result<bool> headHasSteps(const Database& db, int count) {
    // A step's payload is a JSON object, a row's an array: no need to decode them.
    auto steps = db.prepare("SELECT EXISTS(SELECT 1 FROM (SELECT row_json FROM __cdc_event_queue ORDER BY "
                            "position, id LIMIT ?) WHERE row_json LIKE '{%')");
    if (!steps)
        return steps.error();
    steps->bind(1, static_cast<std::int64_t>(count));
    if (auto has = steps->step(); !has)
        return has.error();
    return steps->int64(0) != 0;
}

Result<QList<QueuedEvent>> eventsOf(const Database& db, const QString& source, int last) {
    // Steps are JSON objects: left out without decoding them.
    auto stmt =
        db.prepare("SELECT id, source, row_json FROM __cdc_event_queue WHERE source = ? COLLATE NOCASE "
                   "AND row_json NOT LIKE '{%' ORDER BY position DESC, id DESC LIMIT ?");
    if (!stmt)
        return stmt.error();
    stmt->bind(1, cdc::Value(source.toStdString())).bind(2, static_cast<std::int64_t>(last));
    QList<QueuedEvent> out;
    CDC_TRY(stmt->forEachRow([&out](const storage::Statement& row) {
        out.prepend(decodeEvent(row.int64(0), QString::fromStdString(row.text(1)), row.text(2)));
    }));
    return out;
}

Result<qint64> queuedCountOf(const Database& db, const QString& source) {
    auto stmt =
        db.prepare("SELECT count(*) FROM __cdc_event_queue WHERE source = ? COLLATE NOCASE AND row_json "
                   "NOT LIKE '{%'");
    if (!stmt)
        return stmt.error();
    stmt->bind(1, cdc::Value(source.toStdString()));
    if (auto has = stmt->step(); !has)
        return has.error();
    return static_cast<qint64>(stmt->int64(0));
}

Result<qint64> queuedCount(const Database& db) {
    auto count = scalar(db, "SELECT count(*) FROM __cdc_event_queue");
    if (!count)
        return count.error();
    return static_cast<qint64>(*count);
}

Result<QList<QueuedEvent>> events(const Database& db) {
    auto head = queueHead(db, -1);
    if (!head)
        return head.error();
    QList<QueuedEvent> out;
    out.reserve(head->size());
    for (auto& [event, position] : *head)
        out.append(std::move(event));
    return out;
}

Result<QList<qint64>> appendEvents(Database& db, const QList<QueuedEvent>& toAdd) {
    auto maxStmt = db.prepare("SELECT COALESCE(MAX(position), 0) FROM __cdc_event_queue");
    if (!maxStmt)
        return maxStmt.error();
    if (auto has = maxStmt->step(); !has)
        return has.error();
    qint64 position = maxStmt->int64(0);
    auto insert = db.prepare("INSERT INTO __cdc_event_queue(position, source, row_json) VALUES(?, ?, ?)");
    if (!insert)
        return insert.error();
    QList<qint64> ids;
    for (const auto& e : toAdd) {
        insert->reset();
        insert->bind(1, static_cast<std::int64_t>(++position))
            .bind(2, cdc::Value(e.source.toStdString()))
            .bind(3, cdc::Value(encodePayload(e).toStdString()));
        CDC_TRY(insert->run());
        ids.append(db.lastInsertRowid());
    }
    return ids;
}

Status reorderEvents(Database& db, const QList<qint64>& orderedIds) {
    if (orderedIds.isEmpty())
        return {};
    // From the head's position: the listed events are the head, so n positions from there end at or before
    // the largest they had, and the events not listed stay behind them.
    auto first = scalar(db, "SELECT COALESCE(MIN(position), 1) FROM __cdc_event_queue");
    if (!first)
        return first.error();
    auto stmt = db.prepare("UPDATE __cdc_event_queue SET position = ? WHERE id = ?");
    if (!stmt)
        return stmt.error();
    std::int64_t position = *first - 1;
    for (qint64 id : orderedIds) {
        stmt->reset();
        stmt->bind(1, ++position).bind(2, static_cast<std::int64_t>(id));
        CDC_TRY(stmt->run());
    }
    return {};
}

Status updateEvent(Database& db, const QueuedEvent& event) {
    auto stmt = db.prepare("UPDATE __cdc_event_queue SET source = ?, row_json = ? WHERE id = ?");
    if (!stmt)
        return stmt.error();
    stmt->bind(1, cdc::Value(event.source.toStdString()))
        .bind(2, cdc::Value(encodePayload(event).toStdString()))
        .bind(3, static_cast<std::int64_t>(event.id));
    return stmt->run();
}

Status removeEvents(Database& db, const QList<qint64>& ids) {
    auto stmt = db.prepare("DELETE FROM __cdc_event_queue WHERE id = ?");
    if (!stmt)
        return stmt.error();
    for (qint64 id : ids) {
        stmt->reset();
        stmt->bind(1, static_cast<std::int64_t>(id));
        CDC_TRY(stmt->run());
    }
    return {};
}

Result<int> deliverEvents(Database& db, int count, std::optional<qint64> updateId) {
    if (count <= 0)
        return 0;
    auto deliveries = DeliveryWriter::prepare(db, updateId);
    if (!deliveries)
        return deliveries.error();
    // Only the head: the rest of the queue may hold a whole imported feed.
    auto queued = readQueueHead(db, count);
    if (!queued)
        return queued.error();
    // Each source's INSERT is prepared once per delivery (looking the table up per event was most of a
    // step's time outside the engine); a step's script may change a table, so it starts them over.
    std::map<QString, SourceInsert> inserts;
    int delivered = 0;
    for (const StoredEvent& q : *queued) {
        const QueuedEvent event = decodeEvent(q.id, q.source, q.payload);
        if (event.isStep()) {
            CDC_TRY(deliverStep(db, *deliveries, event, q.position));
            inserts.clear();
        } else {
            auto found = inserts.find(q.source);
            if (found == inserts.end()) {
                auto prepared = prepareSourceInsert(db, q.source, q.id);
                if (!prepared)
                    return prepared.error();
                found = inserts.emplace(q.source, std::move(prepared).value()).first;
            }
            SourceInsert& target = found->second;
            if (target.columns != event.values.size())
                return Diagnostic::error("EVENT_SHAPE", "event " + std::to_string(q.id) + " has " +
                                                            std::to_string(event.values.size()) +
                                                            " values but '" + target.name + "' has " +
                                                            std::to_string(target.columns) + " columns");
            target.insert.reset();
            for (std::size_t i = 0; i < event.values.size(); ++i)
                target.insert.bind(static_cast<int>(i) + 1, event.values[i]);
            CDC_TRY(target.insert.run());
            // A row's queue payload is the row as encodeRow writes it: kept as it was read.
            CDC_TRY(
                deliveries->add(target.name, db.lastInsertRowid(), q.payload, QueueOrigin{q.id, q.position}));
        }
        ++delivered;
    }
    // The delivered events are the queue's head: one statement takes them out.
    auto remove = db.prepare("DELETE FROM __cdc_event_queue WHERE id IN (SELECT id FROM __cdc_event_queue "
                             "ORDER BY position, id LIMIT ?)");
    if (!remove)
        return remove.error();
    remove->bind(1, static_cast<std::int64_t>(delivered));
    CDC_TRY(remove->run());
    return delivered;
}

Status recordDelivery(Database& db, const QString& source, qint64 rowid, const cdc::Row& values,
                      const std::optional<QueueOrigin>& origin) {
    auto deliveries = DeliveryWriter::prepare(db, std::nullopt);
    if (!deliveries)
        return deliveries.error();
    return deliveries->add(source.toStdString(), rowid, encodeRow(values).toStdString(), origin);
}

Status assignDeliveries(Database& db, qint64 updateId, std::optional<qint64> deliveredTo) {
    // Rows delivered to an update id that turned out different (none, in practice: see SimulationRunner)
    // move to the real one; rows delivered without one join it too. Both are index lookups, nothing when
    // there is nothing to move: rewriting every delivery row of a step was a tenth of the step.
    if (deliveredTo && *deliveredTo != updateId) {
        auto moved = db.prepare("UPDATE __cdc_delivery SET update_id = ? WHERE update_id = ?");
        if (!moved)
            return moved.error();
        moved->bind(1, static_cast<std::int64_t>(updateId)).bind(2, static_cast<std::int64_t>(*deliveredTo));
        CDC_TRY(moved->run());
    }
    auto stmt = db.prepare("UPDATE __cdc_delivery SET update_id = ? WHERE update_id IS NULL");
    if (!stmt)
        return stmt.error();
    stmt->bind(1, static_cast<std::int64_t>(updateId));
    return stmt->run();
}

Status undeliverAfter(Database& db, qint64 updateId) {
    // Newest first: a step restores its tables as they were before it, which must happen before the
    // rows delivered ahead of it are taken out by rowid.
    auto stmt = db.prepare("SELECT id, source, source_rowid, row_json, queue_id, queue_position FROM "
                           "__cdc_delivery WHERE update_id > ? OR update_id IS NULL ORDER BY id DESC");
    if (!stmt)
        return stmt.error();
    stmt->bind(1, static_cast<std::int64_t>(updateId));
    struct Delivery {
        qint64 id;
        QString source;
        qint64 rowid;
        std::string json;
        std::optional<QueueOrigin> origin;
    };
    QList<Delivery> deliveries;
    CDC_TRY(stmt->forEachRow([&deliveries](const storage::Statement& row) {
        std::optional<QueueOrigin> origin;
        if (!row.isNull(4) && !row.isNull(5))
            origin = QueueOrigin{row.int64(4), row.int64(5)};
        deliveries.append(
            {row.int64(0), QString::fromStdString(row.text(1)), row.int64(2), row.text(3), origin});
    }));
    if (deliveries.isEmpty())
        return {};
    QList<Requeued> back; // in delivery order
    auto clear = db.prepare("DELETE FROM __cdc_delivery WHERE id = ?");
    if (!clear)
        return clear.error();
    for (const Delivery& d : deliveries) {
        QueuedEvent event = decodeEvent(0, d.source, d.json);
        if (event.isStep()) {
            CDC_TRY(undeliverStep(db, QJsonDocument::fromJson(QByteArray::fromStdString(d.json)).object()));
        } else if (auto table = storage::Catalog::find(db, d.source.toStdString()); !table) {
            return table.error();
        } else if (*table) { // a table dropped since has nothing to take back
            auto del = db.prepare("DELETE FROM " + storage::quoteIdentifier((*table)->sqliteName) +
                                  " WHERE rowid = ?");
            if (!del)
                return del.error();
            del->bind(1, static_cast<std::int64_t>(d.rowid));
            CDC_TRY(del->run());
        }
        clear->reset();
        clear->bind(1, static_cast<std::int64_t>(d.id));
        CDC_TRY(clear->run());
        back.prepend({std::move(event), d.origin});
    }
    return requeueAtFront(db, back);
}

Status rewindClock(Database& db, qint64 updateId) {
    qint64 time = intValue(db, kClockStartKey, kDefaultClock);
    if (updateId > 0 && db.tableExists("__cdc_updates")) {
        auto stmt = db.prepare("SELECT now FROM __cdc_updates WHERE update_id = ?");
        if (!stmt)
            return stmt.error();
        stmt->bind(1, static_cast<std::int64_t>(updateId));
        auto has = stmt->step();
        if (!has)
            return has.error();
        if (*has && stmt->columnType(0) == 1 /* SQLITE_INTEGER */)
            time = stmt->int64(0);
    }
    return setValue(db, kClockKey, QString::number(time));
}

} // namespace cdc::ui::projectstore
