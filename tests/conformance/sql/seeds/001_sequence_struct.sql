CREATE OR REFRESH STREAMING TABLE target;

CREATE FLOW flow AS AUTO CDC INTO target
FROM stream(cdc_data.users)
KEYS (userId)
SEQUENCE BY STRUCT(timestamp_col, id_col)
