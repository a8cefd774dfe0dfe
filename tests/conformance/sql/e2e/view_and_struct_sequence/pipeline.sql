CREATE TEMPORARY VIEW events AS
SELECT id, upper(payload) AS payload, CAST(ts AS TIMESTAMP) AS ts, tiebreak, op
FROM STREAM(raw_events);

CREATE OR REFRESH STREAMING TABLE current_state;

CREATE FLOW apply_events AS AUTO CDC INTO current_state
FROM STREAM(events)
KEYS (id)
APPLY AS DELETE WHEN op = 'DELETE'
SEQUENCE BY STRUCT(ts, tiebreak)
COLUMNS * EXCEPT (op, tiebreak)
STORED AS SCD TYPE 1;
