-- The view dedups the feed as people write it in Databricks: keep the first delivery of each (id, seq)
-- with ROW_NUMBER() ... QUALIFY, and drop the ingestion column with * EXCEPT.
CREATE TEMPORARY VIEW deduped AS
SELECT * EXCEPT (ingest_id)
FROM STREAM(raw_events)
QUALIFY ROW_NUMBER() OVER (PARTITION BY id, seq ORDER BY ingest_id) = 1;

CREATE OR REFRESH STREAMING TABLE people;

CREATE FLOW people_cdc AS AUTO CDC INTO people
FROM STREAM(deduped)
KEYS (id)
APPLY AS DELETE WHEN op = 'DELETE'
SEQUENCE BY seq
COLUMNS * EXCEPT (op)
STORED AS SCD TYPE 2;
