-- A first update whose flow fails at run time (a NULL key) still leaves the declared tables set up:
-- existing, empty, their columns known; no row of any table changes.
CREATE OR REFRESH STREAMING TABLE users;

CREATE FLOW users_flow AS AUTO CDC INTO users
FROM STREAM(users_cdf)
KEYS (userId)
SEQUENCE BY sequenceNum;

CREATE MATERIALIZED VIEW user_count AS SELECT count(*) AS n FROM users;
