CREATE OR REFRESH STREAMING TABLE users;
CREATE FLOW users_flow AS AUTO CDC INTO users
FROM SNAPSHOT (SELECT CAST(id AS INT) AS id, name FROM read_files('/Volumes/main/cdc/files/../../../../secret.csv', format => 'csv', header => true))
KEYS (id);
