CREATE TEMPORARY VIEW users AS SELECT * FROM STREAM(main.cdc_tutorial.users_cdf);
CREATE OR REFRESH STREAMING TABLE users_history;
CREATE FLOW users_history AS AUTO CDC INTO users_history FROM STREAM(users) KEYS (userId) APPLY AS DELETE WHEN operation = 'DELETE' SEQUENCE BY sequenceNum COLUMNS * EXCEPT (operation, sequenceNum) STORED AS SCD TYPE 2 TRACK HISTORY ON * EXCEPT (city);
