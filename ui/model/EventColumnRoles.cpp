// How the roles are found without evaluating anything: the sequence is the SEQUENCE BY column, the
// operation the first source column named as a word in the delete (or truncate) condition's text.
#include "ui/model/EventColumnRoles.h"

#include <QRegularExpression>

namespace cdc::ui {

namespace {

bool sameRelation(const QString& catalogName, const QString& reference) {
    return catalogName.compare(reference, Qt::CaseInsensitive) == 0 ||
           catalogName.endsWith(QLatin1Char('.') + reference, Qt::CaseInsensitive);
}

/// The base table a flow reads: views that read exactly one relation are followed (bounded, as views
/// may name each other in a cycle the engine reports).
QString baseRelation(const pipeline::Pipeline& p, std::string name) {
    for (int depth = 0; depth < 16; ++depth) {
        const pipeline::View* view = p.findView(name);
        if (!view || view->query.relations.size() != 1)
            break;
        name = view->query.relations.front().name;
    }
    return QString::fromStdString(name);
}

} // namespace

EventColumnRoles EventColumnRoles::fromPipeline(const pipeline::Pipeline& p) {
    EventColumnRoles roles;
    for (const pipeline::AutoCdcFlow& flow : p.cdcFlows) {
        if (flow.fromSnapshot)
            continue;
        Entry e;
        e.source = baseRelation(p, flow.source.name);
        for (const pipeline::Expression& part : flow.sequenceBy)
            if (part.columnName) {
                e.sequence = QString::fromStdString(*part.columnName);
                break;
            }
        const auto& condition = flow.applyAsDelete ? flow.applyAsDelete : flow.applyAsTruncate;
        // String literals ('DELETE') are not column names: only the rest of the condition is searched.
        static const QRegularExpression literal(
            QStringLiteral("'(?:[^'\\\\]|\\\\.)*'|\"(?:[^\"\\\\]|\\\\.)*\""));
        if (condition)
            e.operationText =
                QString::fromStdString(condition->sparkText).replace(literal, QStringLiteral("''"));
        roles.m_entries << e;
    }
    return roles;
}

EventColumns EventColumnRoles::rolesFor(const QString& source, const QStringList& columns) const {
    EventColumns out;
    for (const Entry& e : m_entries) {
        if (!sameRelation(source, e.source))
            continue;
        for (const QString& c : columns) {
            if (out.sequence.isEmpty() && c.compare(e.sequence, Qt::CaseInsensitive) == 0)
                out.sequence = c;
            // The first source column the condition names, as a whole (optionally back-quoted) word.
            const QRegularExpression word(
                QStringLiteral("(^|[^A-Za-z0-9_])`?%1`?($|[^A-Za-z0-9_])").arg(QRegularExpression::escape(c)),
                QRegularExpression::CaseInsensitiveOption);
            if (out.operation.isEmpty() && !e.operationText.isEmpty() &&
                word.match(e.operationText).hasMatch())
                out.operation = c;
        }
    }
    return out;
}

} // namespace cdc::ui
