-- What pipeline.py declares, written out by hand: name replaced in place (upper-cased), the legacy feed's
-- columns put in the web feed's order.
CREATE TEMPORARY VIEW customers_feed AS
  SELECT id, upper(name) AS name, city, ts FROM (
    SELECT id, name, city, op, ts FROM STREAM(main.shop.customers_web)
    UNION ALL
    SELECT id, name, city, op, ts FROM STREAM(main.shop.customers_legacy));
CREATE OR REFRESH STREAMING TABLE customers;
CREATE FLOW customers_flow AS AUTO CDC INTO customers FROM STREAM(customers_all) KEYS (id)
  APPLY AS DELETE WHEN city IS NULL SEQUENCE BY ts COLUMNS * EXCEPT (ts) STORED AS SCD TYPE 1;
CREATE TEMPORARY VIEW customers_all AS SELECT * FROM STREAM(customers_feed);
