-- Tombstones are kept for one hour of (simulated) time instead of the default two days.
CREATE OR REFRESH STREAMING TABLE accounts
  TBLPROPERTIES ('pipelines.cdc.tombstoneGCThresholdInSeconds' = '3600');

CREATE FLOW accounts_flow AS AUTO CDC INTO
  accounts
FROM
  stream(lab.accounts_cdf)
KEYS
  (accountId)
APPLY AS DELETE WHEN
  operation = "DELETE"
SEQUENCE BY
  seq
COLUMNS * EXCEPT
  (operation, seq)
STORED AS
  SCD TYPE 1;
