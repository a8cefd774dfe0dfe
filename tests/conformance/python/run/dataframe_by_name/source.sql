CREATE SCHEMA IF NOT EXISTS main.shop;

-- Two feeds of one entity whose columns come in different orders (a legacy export and the new one).
CREATE TABLE main.shop.customers_web (id INT, name STRING, city STRING, op STRING, ts BIGINT);
CREATE TABLE main.shop.customers_legacy (ts BIGINT, city STRING, op STRING, id INT, name STRING);

INSERT INTO main.shop.customers_web VALUES
  (1, 'ada lovelace', 'London', 'UPSERT', 1), (2, 'grace hopper', 'Arlington', 'UPSERT', 2);
INSERT INTO main.shop.customers_legacy VALUES
  (3, 'Paris', 'UPSERT', 3, 'marie curie'), (4, 'London', 'UPSERT', 1, 'ada king');
