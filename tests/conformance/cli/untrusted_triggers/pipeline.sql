CREATE OR REFRESH STREAMING TABLE current;
CREATE FLOW apply AS AUTO CDC INTO current FROM stream(users) KEYS (id) APPLY AS DELETE WHEN op = 'D'
SEQUENCE BY seq COLUMNS * EXCEPT (op, seq) STORED AS SCD TYPE 1;
-- Quick over 4 users (4^6 rows), endless over 128.
CREATE MATERIALIZED VIEW pairs AS SELECT count(*) AS n FROM users a, users b, users c, users d, users e, users f;
