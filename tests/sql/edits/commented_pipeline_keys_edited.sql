CREATE OR REFRESH STREAMING TABLE users_history;

CREATE FLOW apply_cdc AS AUTO CDC INTO users_history
FROM STREAM(main.cdc_tutorial.users_cdf)
KEYS (userId, tenantId)
APPLY AS DELETE WHEN operation = 'DELETE'
SEQUENCE BY sequenceNum
STORED AS SCD TYPE 2;

CREATE TEMPORARY VIEW recent AS SELECT * FROM users_history WHERE sequenceNum > 5;
