-- Every kind of dataset in one pipeline: an AUTO CDC target, an append table fed by the target's change
-- feed (a stream read of an AUTO CDC target is its change feed), and a materialized view over both.
CREATE OR REFRESH STREAMING TABLE users_current;

CREATE FLOW users_flow AS AUTO CDC INTO users_current
FROM STREAM(main.cdc_tutorial.users_cdf)
KEYS (userId)
APPLY AS DELETE WHEN operation = "DELETE"
SEQUENCE BY sequenceNum
COLUMNS * EXCEPT (operation, sequenceNum)
STORED AS SCD TYPE 1;

CREATE OR REFRESH STREAMING TABLE user_changes AS
SELECT userId, city, _change_type AS change, _commit_version AS version FROM STREAM(users_current);

CREATE MATERIALIZED VIEW change_summary AS
SELECT c.change, count(*) AS n, max(u.userId) AS top_user
FROM user_changes c LEFT JOIN users_current u ON c.userId = u.userId
GROUP BY c.change;
