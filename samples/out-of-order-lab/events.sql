-- Arrival order is NOT sequence order: seq 3 arrives before seq 2, and the delete of order 2
-- arrives before its insert.
INSERT INTO lab.orders_cdf VALUES
  (1, "created",   10.0, "UPSERT", 1),
  (1, "shipped",   10.0, "UPSERT", 3),
  (1, "paid",      10.0, "UPSERT", 2),
  (2, null,        null, "DELETE", 5),
  (2, "created",   25.5, "UPSERT", 4),
  (3, "created",    7.0, "UPSERT", 1),
  (3, "paid",       7.5, "UPSERT", 2),
  (1, "delivered", 10.0, "UPSERT", 4);
