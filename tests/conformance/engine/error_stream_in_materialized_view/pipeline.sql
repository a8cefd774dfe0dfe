-- A materialized view is a batch query: STREAM() in it is an error, also through a view.
CREATE TEMPORARY VIEW recent AS SELECT * FROM STREAM(events) WHERE seq > 0;
CREATE MATERIALIZED VIEW m AS SELECT count(*) AS n FROM recent;
