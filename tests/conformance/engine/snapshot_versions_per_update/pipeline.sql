-- Seed 001's versioned-snapshot example (C6) with the snapshot files as rows of one table: the
-- version column names the file a row came from (read_files / list_files are not simulated).
CREATE OR REFRESH STREAMING TABLE main.cdc_tutorial.target_versioned;

CREATE FLOW target_versioned_snapshot_flow AS
AUTO CDC INTO main.cdc_tutorial.target_versioned
FROM SNAPSHOT (
  SELECT userId, city
  FROM main.cdc_tutorial.snapshots
  WHERE version = (SELECT version FROM current_snapshot_version())
)
WITH VERSION (
  SELECT DISTINCT version
  FROM main.cdc_tutorial.snapshots
  WHERE (
    NOT EXISTS (SELECT 1 FROM last_snapshot_version())
    OR version > (SELECT version FROM last_snapshot_version())
  )
  ORDER BY version
  LIMIT 1
)
KEYS (userId)
STORED AS SCD TYPE 2;
