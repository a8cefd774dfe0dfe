CREATE OR REFRESH STREAMING TABLE main.cdc_tutorial.target_versioned;
-- snapshots from the Python function next_snapshot_and_version (the query below is its first one; only a run of the .py file calls it)
CREATE FLOW target_versioned AS AUTO CDC INTO main.cdc_tutorial.target_versioned FROM SNAPSHOT (SELECT * FROM read_files('/Volumes/main/cdc_tutorial/snapshots/snapshot_1.csv', format => 'csv', header => true)) WITH VERSION (SELECT 1 AS version LIMIT 0) KEYS (userId) STORED AS SCD TYPE 2;
