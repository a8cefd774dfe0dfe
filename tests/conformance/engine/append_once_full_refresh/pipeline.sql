-- INSERT ONCE: a batch backfill that runs in one update only and again after a full refresh
-- (semantics.md §10.4); the streaming flow next to it appends as usual, and a full refresh replays it.
CREATE OR REFRESH STREAMING TABLE t;

CREATE FLOW backfill AS INSERT INTO ONCE t BY NAME
SELECT id, v FROM archive;

CREATE FLOW changes AS INSERT INTO t BY NAME
SELECT id, v FROM STREAM(live);
