-- Flow orders_current_flow: the MERGE a data engineer writes without AUTO CDC, run once per
-- batch of new rows of lab.orders_cdf. It keeps the batch's latest row per key but
-- compares no stored sequence and keeps no tombstones: a late update overwrites newer data,
-- and a late insert brings a deleted row back.
MERGE INTO orders_current AS t
USING (
  SELECT * FROM (
    SELECT *, seq AS __seq, coalesce(operation = 'DELETE', false) AS __is_delete,
      row_number() OVER (PARTITION BY orderId ORDER BY seq DESC) AS __rn
    FROM lab.orders_cdf -- the rows delivered since the last run
  ) WHERE __rn = 1
) AS s
ON t.orderId = s.orderId
WHEN MATCHED AND s.__is_delete THEN DELETE
WHEN MATCHED THEN UPDATE SET t.status = s.status, t.amount = s.amount
WHEN NOT MATCHED AND NOT s.__is_delete THEN
  INSERT (orderId, status, amount) VALUES (s.orderId, s.status, s.amount);
