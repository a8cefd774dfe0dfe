-- Periodic snapshots (semantics.md §7.2.1): FROM SNAPSHOT names a table, and each update's time is the
-- snapshot's version. Seed 001's snapshot data; the FLOW AUTO CDC clause form of CREATE STREAMING TABLE.
CREATE OR REFRESH STREAMING TABLE target
FLOW AUTO CDC
FROM SNAPSHOT main.cdc_tutorial.snapshot
KEYS (userId)
STORED AS SCD TYPE 2;
