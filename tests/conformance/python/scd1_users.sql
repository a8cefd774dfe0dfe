CREATE TEMPORARY VIEW users AS SELECT * FROM STREAM(main.cdc_tutorial.users_cdf);
CREATE OR REFRESH STREAMING TABLE users_current;
CREATE FLOW users_current AS AUTO CDC INTO users_current FROM STREAM(users) KEYS (userId) APPLY AS DELETE WHEN operation = 'DELETE' APPLY AS TRUNCATE WHEN operation = 'TRUNCATE' SEQUENCE BY sequenceNum COLUMNS * EXCEPT (operation, sequenceNum) STORED AS SCD TYPE 1;
