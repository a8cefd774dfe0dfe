-- The seed's periodic snapshot in SQL as the Python form means it: versioned by the update's time.
CREATE TEMPORARY VIEW source AS SELECT * FROM main.cdc_tutorial.snapshot;

CREATE OR REFRESH STREAMING TABLE target;

CREATE FLOW target AS AUTO CDC INTO target
FROM SNAPSHOT source
KEYS (userId)
STORED AS SCD TYPE 2;
