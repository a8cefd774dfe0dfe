-- Versions as the rule book's list_files example writes them (semantics.md §7.2): struct(modification_time,
-- path), ordered field by field. snapshot_b.csv arrives first, snapshot_a.csv later (so the time, not the
-- name, decides), then snapshot_c.csv and snapshot_d.csv together, modified at the same time (so the
-- path breaks the tie). The snapshot query picks the file whose time and path are the version.
CREATE OR REFRESH STREAMING TABLE main.cdc_tutorial.target_by_time;

CREATE FLOW target_by_time_flow AS
AUTO CDC INTO main.cdc_tutorial.target_by_time
FROM SNAPSHOT (
  SELECT CAST(userId AS INT) AS userId, city
  FROM read_files('/Volumes/main/cdc_tutorial/arrivals/', format => 'csv', header => true)
  WHERE named_struct('modification_time', _metadata.file_modification_time, 'path', _metadata.file_path)
    = (SELECT version FROM current_snapshot_version())
)
WITH VERSION (
  SELECT struct(modification_time, path) AS version
  FROM list_files('/Volumes/main/cdc_tutorial/arrivals/')
  WHERE NOT EXISTS (SELECT 1 FROM last_snapshot_version())
    OR struct(modification_time, path) > (SELECT version FROM last_snapshot_version())
)
KEYS (userId)
STORED AS SCD TYPE 2;
