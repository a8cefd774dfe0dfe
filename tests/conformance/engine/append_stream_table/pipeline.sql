-- CREATE STREAMING TABLE ... AS query: an append flow named after its table, reading only the rows appended
-- since its checkpoint (semantics.md §10.2).
CREATE OR REFRESH STREAMING TABLE events_clean
AS SELECT id, upper(name) AS name, amount * 2 AS doubled FROM STREAM(events) WHERE amount > 1.5;
