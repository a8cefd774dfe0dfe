CREATE SCHEMA IF NOT EXISTS main.crm;

CREATE TABLE main.crm.customers_cdf (id INT, name STRING, op STRING, ts BIGINT);
CREATE TABLE main.crm.orders_cdf (order_id INT, amount DOUBLE, op STRING, ts BIGINT);
CREATE TABLE main.crm.products_cdf (sku STRING, title STRING, op STRING, ts BIGINT);

INSERT INTO main.crm.customers_cdf VALUES
  (1, 'Ada', 'INSERT', 1), (2, 'Grace', 'INSERT', 1), (1, 'Ada L.', 'UPDATE', 3), (2, NULL, 'DELETE', 2);
INSERT INTO main.crm.orders_cdf VALUES
  (10, 9.5, 'INSERT', 1), (11, 20.0, 'INSERT', 2), (10, 12.0, 'UPDATE', 4), (11, 25.0, 'UPDATE', 3);
INSERT INTO main.crm.products_cdf VALUES
  ('A-1', 'Lamp', 'INSERT', 1), ('B-2', 'Desk', 'INSERT', 1), ('B-2', NULL, 'DELETE', 5);
