-- Two targets fed by the same change feed: the latest state (SCD 1) and the full history (SCD 2).
CREATE OR REFRESH STREAMING TABLE orders_current;

CREATE FLOW orders_current_flow AS AUTO CDC INTO
  orders_current
FROM
  stream(lab.orders_cdf)
KEYS
  (orderId)
APPLY AS DELETE WHEN
  operation = "DELETE"
SEQUENCE BY
  seq
COLUMNS * EXCEPT
  (operation, seq)
STORED AS
  SCD TYPE 1;

CREATE OR REFRESH STREAMING TABLE orders_history;

CREATE FLOW orders_history_flow AS AUTO CDC INTO
  orders_history
FROM
  stream(lab.orders_cdf)
KEYS
  (orderId)
APPLY AS DELETE WHEN
  operation = "DELETE"
SEQUENCE BY
  seq
COLUMNS * EXCEPT
  (operation, seq)
STORED AS
  SCD TYPE 2;
