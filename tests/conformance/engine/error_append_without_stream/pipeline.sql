-- An append flow into a streaming table reads a stream (or is ONCE).
CREATE OR REFRESH STREAMING TABLE t;
CREATE FLOW f AS INSERT INTO t BY NAME SELECT id FROM events;
