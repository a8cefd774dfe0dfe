// Deliberately the slow, obvious way: touched keys are re-sorted and folded from their events on every
// update, so the engine's incremental shortcuts have nothing to share with it; each rule is applied where
// its section or decision number is cited.
#include "ReferenceModel.h"

#include <algorithm>

namespace enginetest {

ReferenceModel::ReferenceModel(TargetRules target, std::vector<FlowRules> flows)
    : m_target(std::move(target)), m_flows(std::move(flows)), m_delivered(m_flows.size()) {}

void ReferenceModel::apply(const ModelUpdate& update) {
    for (const ModelEvent& e : update.events)
        m_delivered[static_cast<std::size_t>(e.flow)].push_back(e);
    if (update.fullRefresh) {
        // §10.4: the target, its tombstones, watermark and checkpoints go; every source is read again.
        m_scd1.clear();
        m_scd2.clear();
        m_truncateWatermark.reset();
        for (const auto& all : m_delivered)
            applyBatch(all, update.now);
        m_onceFlowsRan = true;
        return;
    }
    collectGarbage(update.now);
    for (std::size_t f = 0; f < m_flows.size(); ++f) {
        if (m_flows[f].once) {
            // Its whole source as a batch, in the first update only.
            if (!m_onceFlowsRan)
                applyBatch(m_delivered[f], update.now);
            continue;
        }
        std::vector<ModelEvent> batch;
        for (const ModelEvent& e : update.events)
            if (e.flow == static_cast<int>(f))
                batch.push_back(e);
        applyBatch(batch, update.now);
    }
    m_onceFlowsRan = true;
}

void ReferenceModel::collectGarbage(std::int64_t now) {
    // Decision 4: collected at the start of an update once the threshold has passed (the tombstone is
    // due at deletedAt + threshold).
    const auto expired = [&](std::int64_t at) { return now - at >= m_target.gcThresholdSeconds; };
    if (m_target.scdType == 1) {
        std::erase_if(m_scd1,
                      [&](const auto& kv) { return !kv.second.live && expired(kv.second.deletedAt); });
        return;
    }
    if (m_target.scd2Deletes != Scd2Deletes::RuleBook)
        return;
    for (auto& [key, log] : m_scd2) {
        std::vector<bool> noOp;
        versions(log, &noOp);
        std::vector<LogEntry> kept;
        for (std::size_t i = 0; i < log.size(); ++i)
            if (!(noOp[i] && expired(log[i].writtenAt)))
                kept.push_back(log[i]);
        log = std::move(kept);
    }
    std::erase_if(m_scd2, [](const auto& kv) { return kv.second.empty(); });
}

void ReferenceModel::applyBatch(const std::vector<ModelEvent>& batch, std::int64_t now) {
    if (batch.empty())
        return;
    if (m_target.scdType == 1)
        applyScd1(batch, now);
    else
        applyScd2(batch, now);
}

void ReferenceModel::applyScd1(const std::vector<ModelEvent>& batch, std::int64_t now) {
    // Decision 5 / §2.5: the batch's highest truncate removes every row upserted below it and leaves a
    // watermark. Applying it before the keys' events is what sequence order means for the events above
    // it: they start from an empty row (an IGNORE NULL UPDATES fold keeps nothing from before it).
    // Everything sequenced below it goes, tombstones included, and every later event below the watermark
    // is dropped, deletes included: the watermark does a tombstone's job for all of them. §2.7's
    // "delete (as tombstones)" and keeping early deletes below the watermark (decision 4) would list a
    // key or not depending on arrival order, against decision 1 (see tst_engine's
    // truncateRemovesTombstonesBelowIt).
    std::optional<Sequence> truncate;
    for (const ModelEvent& e : batch)
        if (e.kind == EventKind::Truncate && (!truncate || *truncate < e.sequence))
            truncate = e.sequence;
    if (truncate) {
        std::erase_if(m_scd1, [&](const auto& kv) {
            return kv.second.live ? kv.second.upsertSequence < *truncate
                                  : kv.second.deleteSequence < *truncate;
        });
        if (!m_truncateWatermark || *m_truncateWatermark < *truncate)
            m_truncateWatermark = truncate;
    }
    std::map<Key, std::vector<ModelEvent>> byKey;
    for (const ModelEvent& e : batch)
        if (e.kind != EventKind::Truncate)
            byKey[e.key].push_back(e);
    for (auto& [key, events] : byKey)
        applyScd1Key(key, std::move(events), now);
}

void ReferenceModel::applyScd1Key(const Key& key, std::vector<ModelEvent> events, std::int64_t now) {
    // Sequence order; at a tie the delete goes first and upserts keep their arrival order, so the last
    // event is decision 2's winner (the upsert over a delete, the later of two upserts).
    std::stable_sort(events.begin(), events.end(), [](const ModelEvent& a, const ModelEvent& b) {
        if (!(a.sequence == b.sequence))
            return a.sequence < b.sequence;
        return a.kind == EventKind::Delete && b.kind == EventKind::Upsert;
    });
    auto found = m_scd1.find(key);
    Scd1Entry* stored = found == m_scd1.end() ? nullptr : &found->second;
    // Events older than what is stored are dropped whole (§2.2, §5.1.3): anything below the truncate
    // watermark; an upsert below the live row or the tombstone (which stops only strictly older upserts,
    // decision 2); a delete not strictly newer than the live row.
    std::vector<ModelEvent> kept;
    for (ModelEvent& e : events) {
        bool stale = m_truncateWatermark && e.sequence < *m_truncateWatermark;
        if (e.kind == EventKind::Upsert)
            stale = stale || (stored && stored->live && e.sequence < stored->upsertSequence) ||
                    (stored && !stored->live && e.sequence < stored->deleteSequence);
        else
            stale = stale || (stored && stored->live && !(stored->upsertSequence < e.sequence));
        if (!stale)
            kept.push_back(std::move(e));
    }
    if (kept.empty())
        return;
    // Partial updates fold in sequence order from the stored live row; a delete restarts the fold.
    std::optional<std::vector<Cell>> previous;
    if (stored && stored->live)
        previous = stored->values;
    for (const ModelEvent& e : kept) {
        if (e.kind == EventKind::Delete)
            previous.reset();
        else
            previous = folded(e, previous ? &*previous : nullptr);
    }
    const ModelEvent& winner = kept.back();
    if (winner.kind == EventKind::Upsert) {
        m_scd1[key] = Scd1Entry{true, std::move(*previous), winner.sequence, {}, 0};
    } else if (stored && !stored->live) {
        // §2.4: a newer delete moves the tombstone up (written again now); an older one changes nothing.
        if (stored->deleteSequence < winner.sequence) {
            stored->deleteSequence = winner.sequence;
            stored->deletedAt = now;
        }
    } else {
        // A live row deleted, or an early delete of a key never seen (decision 4).
        m_scd1[key] = Scd1Entry{false, {}, {}, winner.sequence, now};
    }
}

void ReferenceModel::applyScd2(const std::vector<ModelEvent>& batch, std::int64_t now) {
    // The log keeps one event per sequence value (§3.7): of two upserts the later arrival wins, a delete
    // wins over an upsert whatever the order (decision 2).
    for (const ModelEvent& e : batch) {
        if (e.kind == EventKind::Truncate)
            continue;
        auto& log = m_scd2[e.key];
        auto at = std::lower_bound(log.begin(), log.end(), e.sequence,
                                   [](const LogEntry& l, const Sequence& s) { return l.event.sequence < s; });
        if (at == log.end() || !(at->event.sequence == e.sequence))
            log.insert(at, LogEntry{e, now});
        else if (at->event.kind == EventKind::Upsert)
            *at = LogEntry{e, now};
    }
}

std::vector<Cell> ReferenceModel::folded(const ModelEvent& e, const std::vector<Cell>* previous) const {
    const FlowRules& rules = m_flows[static_cast<std::size_t>(e.flow)];
    std::vector<Cell> v = e.values;
    for (std::size_t c = 0; c < v.size(); ++c) {
        if (rules.columnsToUpdate) {
            // §5.2: listed columns are written, NULLs included; the others keep the row's value (NULL
            // for a new row).
            if (!e.listed[c])
                v[c] = previous ? (*previous)[c] : std::nullopt;
        } else if (!rules.ignoreNull.empty() && rules.ignoreNull[c] && !v[c] && previous) {
            v[c] = (*previous)[c]; // §5.1: a NULL keeps the value before it
        }
    }
    return v;
}

bool ReferenceModel::sameTracked(const std::vector<Cell>& a, const std::vector<Cell>& b) const {
    for (std::size_t c = 0; c < a.size(); ++c)
        if ((m_target.tracked.empty() || m_target.tracked[c]) && a[c] != b[c])
            return false;
    return true;
}

std::vector<ReferenceModel::Version> ReferenceModel::versions(const std::vector<LogEntry>& log,
                                                              std::vector<bool>* noOpDeletes) const {
    // §3.7 with the clean delete rule (decision 6): runs of equal tracked values are one version whose
    // untracked columns take the newest values; a delete closes the open version, if any.
    std::vector<Version> out;
    std::optional<Version> open;
    if (noOpDeletes)
        noOpDeletes->assign(log.size(), false);
    for (std::size_t i = 0; i < log.size(); ++i) {
        const ModelEvent& e = log[i].event;
        if (e.kind == EventKind::Delete) {
            if (open) {
                open->end = e.sequence;
                out.push_back(std::move(*open));
                open.reset();
            } else if (noOpDeletes) {
                (*noOpDeletes)[i] = true;
            }
            continue;
        }
        std::vector<Cell> v = folded(e, open ? &open->values : nullptr);
        if (open && sameTracked(v, open->values)) {
            open->values = std::move(v);
            continue;
        }
        if (open) {
            open->end = e.sequence;
            out.push_back(std::move(*open));
        }
        open = Version{std::move(v), e.sequence, std::nullopt};
    }
    if (open)
        out.push_back(std::move(*open));
    return out;
}

std::string ReferenceModel::rowText(const Key& key, const std::vector<Cell>& values) const {
    std::string out;
    for (std::size_t i = 0; i < m_target.layout.size(); ++i) {
        const auto [isKey, index] = m_target.layout[i];
        const auto at = static_cast<std::size_t>(index);
        out += (i ? "\t" : "") + (isKey ? key[at] : values[at].value_or("null"));
    }
    return out;
}

std::vector<std::string> ReferenceModel::rows() const {
    std::vector<std::string> out;
    for (const auto& [key, entry] : m_scd1)
        if (entry.live)
            out.push_back(rowText(key, entry.values));
    for (const auto& [key, log] : m_scd2)
        for (const Version& v : versions(log))
            out.push_back(rowText(key, v.values) + "\t" + v.start.text + "\t" +
                          (v.end ? v.end->text : "null"));
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<ModelTombstone> ReferenceModel::tombstones() const {
    std::vector<ModelTombstone> out;
    for (const auto& [key, entry] : m_scd1)
        if (!entry.live)
            out.push_back({key, entry.deleteSequence.text, entry.deletedAt});
    for (const auto& [key, log] : m_scd2) {
        std::vector<bool> noOp;
        versions(log, &noOp);
        for (std::size_t i = 0; i < log.size(); ++i)
            if (log[i].event.kind == EventKind::Delete &&
                (m_target.scd2Deletes == Scd2Deletes::KeptForever || noOp[i]))
                out.push_back({key, log[i].event.sequence.text, log[i].writtenAt});
    }
    return out;
}

} // namespace enginetest
