-- The view reads the struct's fields (meta.op, meta.seq), computes a due date a month after the order (the
-- day kept within the month), and keeps orders above 9 comparing the text amount as a number, as Spark does.
CREATE TEMPORARY VIEW orders AS
SELECT id, meta.op AS op, meta.seq AS seq, CAST(amount AS INT) AS amount,
       CAST(placed AS DATE) + INTERVAL 1 MONTH AS due
FROM STREAM(raw_orders)
WHERE amount > 9;

CREATE OR REFRESH STREAMING TABLE open_orders;

CREATE FLOW open_orders_cdc AS AUTO CDC INTO open_orders
FROM STREAM(orders)
KEYS (id)
APPLY AS DELETE WHEN op = 'DELETE'
SEQUENCE BY seq
COLUMNS * EXCEPT (op)
STORED AS SCD TYPE 1;
