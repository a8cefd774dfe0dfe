#!/usr/bin/env python3
# Spike (not a test, not the engine): does an update-clustered delta, merged into the key-clustered table
# every M updates, make a 10k-event SCD2-shaped update cost the same on 1M events of history as on 10k?
# Set-based and without CDC logic, like cdcstudio-bench's storage floor; every method's time includes its
# WAL checkpoint and (delta) its merge, charged to the updates it serves. Same SQLite library as the app
# (Python's sqlite3 module links the system one).
#   python3 tests/bench/spikes/delta_layout.py [M]      (M = updates between merges, default 5)
# Results and what they mean: docs/performance.md, "What limits the targets", 3.
import os, random, shutil, sqlite3, sys, tempfile, time

WORK = tempfile.mkdtemp(prefix='cdcstudio-delta-spike-')

KEYS = 100_000
def events(n, rng, seq0):
    out = []
    for i in range(n):
        k = rng.randrange(KEYS)
        s = seq0 + i * 10 - (rng.randrange(1, 50) if rng.random() < 0.2 else 0)
        op = 'DELETE' if rng.random() < 0.05 else 'UPSERT'
        out.append((k, s, 'name%d' % rng.randrange(1000), 'city%d' % rng.randrange(100), op))
    return out

def open_db(path):
    for suf in ('', '-wal', '-shm'):  # a fresh file
        try: os.remove(path + suf)
        except FileNotFoundError: pass
    db = sqlite3.connect(path, isolation_level=None)
    db.execute('PRAGMA page_size = 2048'); db.execute('PRAGMA journal_mode = WAL')
    db.execute('PRAGMA synchronous = NORMAL'); db.execute('PRAGMA cache_size = -65536')
    db.execute('CREATE TABLE src(id INTEGER, seq INTEGER, name TEXT, city TEXT, op TEXT)')
    db.execute('CREATE TABLE feed(id INTEGER, seq INTEGER, name TEXT, city TEXT, op TEXT, upd INTEGER)')
    return db

class Direct:
    def setup(self, db):
        db.execute('CREATE TABLE hist(id INTEGER, seq INTEGER, name TEXT, city TEXT, op TEXT, PRIMARY KEY(id, seq)) WITHOUT ROWID')
    def apply(self, db, lo, hi, upd):
        db.execute('BEGIN')
        db.execute('INSERT OR REPLACE INTO hist SELECT id, seq, name, city, op FROM src WHERE rowid > ? AND rowid <= ?', (lo, hi))
        db.execute('INSERT INTO feed SELECT id, seq, name, city, op, ? FROM src WHERE rowid > ? AND rowid <= ?', (upd, lo, hi))
        db.execute('COMMIT')
    def maintain(self, db): pass

class Delta:
    """New rows go to a delta clustered by (update, key, seq); each event also reads its key's newest
    base row (what an exact engine must look at); merge() folds the delta into the key-clustered base."""
    def setup(self, db):
        db.execute('CREATE TABLE base(id INTEGER, seq INTEGER, name TEXT, city TEXT, op TEXT, PRIMARY KEY(id, seq)) WITHOUT ROWID')
        db.execute('CREATE TABLE delta(upd INTEGER, id INTEGER, seq INTEGER, name TEXT, city TEXT, op TEXT, PRIMARY KEY(upd, id, seq)) WITHOUT ROWID')
        db.execute('CREATE INDEX delta_key ON delta(id, seq)')
    def apply(self, db, lo, hi, upd):
        db.execute('BEGIN')
        db.execute('SELECT sum(x) FROM (SELECT (SELECT max(seq) FROM base b WHERE b.id = s.id) + '
                   '(SELECT max(seq) FROM delta d WHERE d.id = s.id) AS x FROM src s WHERE s.rowid > ? AND s.rowid <= ?)', (lo, hi)).fetchall()
        db.execute('INSERT OR REPLACE INTO delta SELECT ?, id, seq, name, city, op FROM src WHERE rowid > ? AND rowid <= ? ORDER BY id, seq', (upd, lo, hi))
        db.execute('INSERT INTO feed SELECT id, seq, name, city, op, ? FROM src WHERE rowid > ? AND rowid <= ?', (upd, lo, hi))
        db.execute('COMMIT')
    def maintain(self, db):
        db.execute('BEGIN')
        db.execute('INSERT OR REPLACE INTO base SELECT id, seq, name, city, op FROM delta ORDER BY id, seq')
        db.execute('DELETE FROM delta')
        db.execute('COMMIT')

class DeltaKeyed(Delta):
    """The delta clustered like the base, on (key, seq), with no index (the layout built on branch
    spike/scd2-delta): one B-tree per write, but its pages grow with the updates between merges."""
    def setup(self, db):
        db.execute('CREATE TABLE base(id INTEGER, seq INTEGER, name TEXT, city TEXT, op TEXT, PRIMARY KEY(id, seq)) WITHOUT ROWID')
        db.execute('CREATE TABLE delta(upd INTEGER, id INTEGER, seq INTEGER, name TEXT, city TEXT, op TEXT, PRIMARY KEY(id, seq)) WITHOUT ROWID')

def run(method, history, inc, reps, path):
    rng = random.Random(7)
    db = open_db(path); method.setup(db)
    seq, last, upd = 0, 0, 0
    chunk = 100_000
    done = 0
    while done < history:
        n = min(chunk, history - done)
        db.executemany('INSERT INTO src VALUES (?,?,?,?,?)', events(n, rng, seq)); seq += n * 10; done += n
        hi = db.execute('SELECT max(rowid) FROM src').fetchone()[0]; upd += 1
        method.apply(db, last, hi, upd); last = hi
    method.maintain(db)
    db.execute('PRAGMA wal_checkpoint(TRUNCATE)')
    cpu = 0.0
    for r in range(reps):
        db.executemany('INSERT INTO src VALUES (?,?,?,?,?)', events(inc, rng, seq)); seq += inc * 10
        hi = db.execute('SELECT max(rowid) FROM src').fetchone()[0]; upd += 1
        t = time.process_time(); method.apply(db, last, hi, upd); cpu += time.process_time() - t; last = hi
    t = time.process_time(); method.maintain(db); db.execute('PRAGMA wal_checkpoint(TRUNCATE)'); cpu += time.process_time() - t
    db.close()
    return cpu / reps * 1000

reps = int(sys.argv[1]) if len(sys.argv) > 1 else 5
for name, m in (('direct (the storage floor)', Direct), ('delta + merge every %d updates' % reps, Delta),
                ('keyed delta + merge every %d' % reps, DeltaKeyed)):
    small = run(m(), 10_000, 10_000, reps, os.path.join(WORK, 'small.db'))
    large = run(m(), 1_000_000, 10_000, reps, os.path.join(WORK, 'large.db'))
    print('%-36s %7.1f ms  %7.1f ms  ratio %.2f' % (name, small, large, large / small), flush=True)
shutil.rmtree(WORK)
