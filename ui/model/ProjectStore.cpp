// Queued rows are JSON arrays because one queue holds rows of differently shaped tables; REALs and
// BLOBs are wrapped so 1.0 and bytes come back as they went in. `__cdc_delivery` remembers the source row
// each delivered event became, so a rewind can take it back and requeue the event at the front.
#include "ui/model/ProjectStore.h"

#include "core/storage/Catalog.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace cdc::ui::projectstore {

using storage::Database;

Status ensureSchema(Database& db) {
    CDC_TRY(storage::Catalog::ensureSchema(db));
    CDC_TRY(storage::projectsettings::ensureSchema(db));
    return db.exec(R"sql(
CREATE TABLE IF NOT EXISTS __cdc_event_queue(
  id       INTEGER PRIMARY KEY,
  position INTEGER NOT NULL,
  source   TEXT NOT NULL,
  row_json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS __cdc_delivery(
  id           INTEGER PRIMARY KEY,
  update_id    INTEGER,
  source       TEXT NOT NULL,
  source_rowid INTEGER NOT NULL,
  row_json     TEXT NOT NULL
);
)sql");
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

QString encodeRow(const cdc::Row& row) {
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
    return QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Compact));
}

cdc::Row decodeRow(const QString& json) {
    cdc::Row row;
    const QJsonArray array = QJsonDocument::fromJson(json.toUtf8()).array();
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

Result<QList<QueuedEvent>> events(const Database& db) {
    auto stmt = db.prepare("SELECT id, source, row_json FROM __cdc_event_queue ORDER BY position, id");
    if (!stmt)
        return stmt.error();
    QList<QueuedEvent> out;
    while (true) {
        auto has = stmt->step();
        if (!has)
            return has.error();
        if (!*has)
            break;
        out.append({stmt->int64(0), QString::fromStdString(stmt->text(1)),
                    decodeRow(QString::fromStdString(stmt->text(2)))});
    }
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
            .bind(3, cdc::Value(encodeRow(e.values).toStdString()));
        CDC_TRY(insert->run());
        ids.append(db.lastInsertRowid());
    }
    return ids;
}

Status reorderEvents(Database& db, const QList<qint64>& orderedIds) {
    auto stmt = db.prepare("UPDATE __cdc_event_queue SET position = ? WHERE id = ?");
    if (!stmt)
        return stmt.error();
    std::int64_t position = 0;
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
        .bind(2, cdc::Value(encodeRow(event.values).toStdString()))
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

Result<int> deliverEvents(Database& db, int count) {
    auto queued = events(db);
    if (!queued)
        return queued.error();
    int delivered = 0;
    for (const auto& event : *queued) {
        if (delivered >= count)
            break;
        auto table = storage::Catalog::find(db, event.source.toStdString());
        if (!table)
            return table.error();
        if (!*table)
            return Diagnostic::error("UNKNOWN_SOURCE", "event " + std::to_string(event.id) +
                                                           " targets the unknown source table '" +
                                                           event.source.toStdString() + "'");
        const auto& info = **table;
        if (info.columns.size() != event.values.size())
            return Diagnostic::error("EVENT_SHAPE", "event " + std::to_string(event.id) + " has " +
                                                        std::to_string(event.values.size()) +
                                                        " values but '" + info.name + "' has " +
                                                        std::to_string(info.columns.size()) + " columns");
        std::string sql = "INSERT INTO " + storage::quoteIdentifier(info.sqliteName) + "(";
        std::string params;
        for (std::size_t i = 0; i < info.columns.size(); ++i) {
            sql += (i ? ", " : "") + storage::quoteIdentifier(info.columns[i].name);
            params += i ? ", ?" : "?";
        }
        sql += ") VALUES(" + params + ")";
        auto insert = db.prepare(sql);
        if (!insert)
            return insert.error();
        for (std::size_t i = 0; i < event.values.size(); ++i)
            insert->bind(static_cast<int>(i) + 1, event.values[i]);
        CDC_TRY(insert->run());
        CDC_TRY(recordDelivery(db, QString::fromStdString(info.name), db.lastInsertRowid(), event.values));
        CDC_TRY(removeEvents(db, {event.id}));
        ++delivered;
    }
    return delivered;
}

Status recordDelivery(Database& db, const QString& source, qint64 rowid, const cdc::Row& values) {
    auto stmt = db.prepare(
        "INSERT INTO __cdc_delivery(update_id, source, source_rowid, row_json) VALUES(NULL, ?, ?, ?)");
    if (!stmt)
        return stmt.error();
    stmt->bind(1, cdc::Value(source.toStdString()))
        .bind(2, static_cast<std::int64_t>(rowid))
        .bind(3, cdc::Value(encodeRow(values).toStdString()));
    return stmt->run();
}

Status assignDeliveries(Database& db, qint64 updateId) {
    auto stmt = db.prepare("UPDATE __cdc_delivery SET update_id = ? WHERE update_id IS NULL");
    if (!stmt)
        return stmt.error();
    stmt->bind(1, static_cast<std::int64_t>(updateId));
    return stmt->run();
}

Status undeliverAfter(Database& db, qint64 updateId) {
    auto stmt = db.prepare("SELECT id, source, source_rowid, row_json FROM __cdc_delivery "
                           "WHERE update_id IS NULL OR update_id > ? ORDER BY id");
    if (!stmt)
        return stmt.error();
    stmt->bind(1, static_cast<std::int64_t>(updateId));
    QList<QueuedEvent> back;
    QList<qint64> deliveryIds;
    QList<std::pair<std::string, qint64>> sourceRows;
    while (true) {
        auto has = stmt->step();
        if (!has)
            return has.error();
        if (!*has)
            break;
        deliveryIds << stmt->int64(0);
        back.append(
            {0, QString::fromStdString(stmt->text(1)), decodeRow(QString::fromStdString(stmt->text(3)))});
        sourceRows.append({stmt->text(1), stmt->int64(2)});
    }
    if (back.isEmpty())
        return {};
    for (const auto& [source, rowid] : sourceRows) {
        auto table = storage::Catalog::find(db, source);
        if (!table)
            return table.error();
        if (!*table)
            continue; // the table was dropped since: nothing to take back
        auto del =
            db.prepare("DELETE FROM " + storage::quoteIdentifier((*table)->sqliteName) + " WHERE rowid = ?");
        if (!del)
            return del.error();
        del->bind(1, static_cast<std::int64_t>(rowid));
        CDC_TRY(del->run());
    }
    auto clear = db.prepare("DELETE FROM __cdc_delivery WHERE id = ?");
    if (!clear)
        return clear.error();
    for (qint64 id : deliveryIds) {
        clear->reset();
        clear->bind(1, static_cast<std::int64_t>(id));
        CDC_TRY(clear->run());
    }
    // Back to the front of the queue, before the events that were never delivered.
    auto waiting = events(db);
    if (!waiting)
        return waiting.error();
    auto ids = appendEvents(db, back);
    if (!ids)
        return ids.error();
    QList<qint64> order = *ids;
    for (const auto& e : *waiting)
        order << e.id;
    return reorderEvents(db, order);
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
