-- Materialized views over an AUTO CDC target, recomputed after each update in dependency order: the view
-- that reads the other one is declared first, and still sees this update's counts (semantics.md §11.3).
CREATE MATERIALIZED VIEW busy_cities AS
SELECT city FROM city_counts WHERE users >= 2;

CREATE OR REFRESH MATERIALIZED VIEW city_counts AS
SELECT city, count(*) AS users FROM users_current GROUP BY city;

CREATE OR REFRESH STREAMING TABLE users_current;

CREATE FLOW users_flow AS AUTO CDC INTO users_current
FROM STREAM(main.cdc_tutorial.users_cdf)
KEYS (userId)
APPLY AS DELETE WHEN operation = "DELETE"
SEQUENCE BY sequenceNum
COLUMNS * EXCEPT (operation, sequenceNum)
STORED AS SCD TYPE 1;
