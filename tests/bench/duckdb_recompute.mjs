// The DuckDB baseline of cdcstudio-bench: what a data engineer would write instead of AUTO CDC — load
// each update's events, then recompute both targets from the whole event log with window functions.
//   node duckdb_recompute.mjs MODULES_DIR EVENTS_CSV
// MODULES_DIR holds node_modules/@duckdb/node-api (scripts/bench installs it in a cache folder on first
// use); EVENTS_CSV has the columns batch,id,name,city,operation,seq in arrival order, batch 0, 1, ...
// Prints one JSON object on stdout: per batch the events loaded and the seconds for loading, the SCD1
// recompute and the SCD2 recompute, and the targets' row counts after it (to compare with the engine's).
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const [modulesDir, csvPath] = process.argv.slice(2);
if (!modulesDir || !csvPath) {
  console.error('usage: node duckdb_recompute.mjs MODULES_DIR EVENTS_CSV');
  process.exit(2);
}
const api = await import(
  pathToFileURL(path.join(modulesDir, 'node_modules', '@duckdb', 'node-api', 'lib', 'index.js')).href);
const { DuckDBInstance } = api.default ?? api;

const instance = await DuckDBInstance.create(':memory:');
const con = await instance.connect();
const scalar = async (sql) => (await con.runAndReadAll(sql)).getRows()[0][0];

// Reading the file is not timed, as appending to the source is not timed for the engine either.
const quoted = csvPath.replaceAll("'", "''");
await con.run(`CREATE TABLE staged AS SELECT * FROM read_csv('${quoted}', header = true,
  columns = {'batch': 'INTEGER', 'id': 'BIGINT', 'name': 'VARCHAR', 'city': 'VARCHAR',
             'operation': 'VARCHAR', 'seq': 'BIGINT'})`);
await con.run(`CREATE TABLE events (id BIGINT, name VARCHAR, city VARCHAR, operation VARCHAR, seq BIGINT)`);
const batches = Number(await scalar('SELECT max(batch) + 1 FROM staged'));

// SCD1: the latest event per key, unless it is a delete.
const scd1 = `CREATE OR REPLACE TABLE t1 AS SELECT id, name, city FROM (
  SELECT *, row_number() OVER (PARTITION BY id ORDER BY seq DESC) rn FROM events)
  WHERE rn = 1 AND operation <> 'DELETE'`;
// SCD2: each key's events by sequence, consecutive identical rows coalesced (AUTO CDC opens no version
// when no tracked column changed), LEAD(seq) as the end of each non-delete event's version.
const scd2 = `CREATE OR REPLACE TABLE t2 AS
  WITH e AS (SELECT *, lag(operation) OVER w pop, lag(name) OVER w pname, lag(city) OVER w pcity
             FROM events WINDOW w AS (PARTITION BY id ORDER BY seq)),
       c AS (SELECT * FROM e WHERE operation = 'DELETE' OR pop IS NULL OR pop = 'DELETE'
             OR name IS DISTINCT FROM pname OR city IS DISTINCT FROM pcity),
       iv AS (SELECT id, name, city, operation, seq AS start_at,
                     lead(seq) OVER (PARTITION BY id ORDER BY seq) AS end_at FROM c)
  SELECT id, name, city, start_at AS __START_AT, end_at AS __END_AT FROM iv WHERE operation <> 'DELETE'`;

const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;
const out = [];
for (let b = 0; b < batches; ++b) {
  let t = process.hrtime.bigint();
  await con.run(`INSERT INTO events SELECT id, name, city, operation, seq FROM staged WHERE batch = ${b}
                 ORDER BY rowid`);
  const loadS = seconds(t);
  t = process.hrtime.bigint();
  await con.run(scd1);
  const scd1S = seconds(t);
  t = process.hrtime.bigint();
  await con.run(scd2);
  const scd2S = seconds(t);
  // Counted outside the timed steps: the targets' rows after each update, to compare with the engine's.
  out.push({ events: Number(await scalar(`SELECT count(*) FROM staged WHERE batch = ${b}`)),
             load_s: loadS, scd1_s: scd1S, scd2_s: scd2S,
             scd1_rows: Number(await scalar('SELECT count(*) FROM t1')),
             scd2_rows: Number(await scalar('SELECT count(*) FROM t2')) });
}
const version = await scalar('SELECT version()');
console.log(JSON.stringify({
  version: String(version),
  threads: Number(await scalar("SELECT current_setting('threads')")),
  batches: out,
}));
