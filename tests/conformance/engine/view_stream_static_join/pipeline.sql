-- A temporary view over a stream feeding an AUTO CDC flow: projection, filter, a stream-static join,
-- CASE and functions (semantics.md §11.4).
CREATE TEMPORARY VIEW orders_enriched AS
SELECT o.order_id, o.seq, o.op, upper(coalesce(c.country, 'unknown')) AS country,
       CASE WHEN o.amount >= 100 THEN 'large' ELSE 'small' END AS size,
       round(o.amount * 1.16, 2) AS gross
FROM STREAM(orders_cdc) o LEFT JOIN customers c ON o.customer_id = c.customer_id
WHERE o.op IN ('I', 'D');

CREATE OR REFRESH STREAMING TABLE orders;

CREATE FLOW orders_flow AS AUTO CDC INTO orders
FROM orders_enriched
KEYS (order_id)
APPLY AS DELETE WHEN op = 'D'
SEQUENCE BY seq
COLUMNS * EXCEPT (op, seq);
