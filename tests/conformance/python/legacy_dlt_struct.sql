CREATE OR REFRESH STREAMING TABLE customers TBLPROPERTIES ('pipelines.cdc.tombstoneGCThresholdInSeconds' = '60');
CREATE FLOW customers_flow AS AUTO CDC INTO customers FROM STREAM(customers_cdc) KEYS (id, region) IGNORE NULL UPDATES SEQUENCE BY STRUCT(ts, txn_id) COLUMNS (id, region, email);
