-- What the loop in pipeline.py declares, written out by hand.
CREATE TEMPORARY VIEW customers_feed AS
  SELECT * FROM STREAM(main.crm.customers_cdf) WHERE op IN ('INSERT', 'UPDATE', 'DELETE');
CREATE OR REFRESH STREAMING TABLE customers_current;
CREATE FLOW apply_customers AS AUTO CDC INTO customers_current FROM STREAM(customers_feed) KEYS (id)
  APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY ts COLUMNS * EXCEPT (op, ts) STORED AS SCD TYPE 1;

CREATE TEMPORARY VIEW orders_feed AS
  SELECT * FROM STREAM(main.crm.orders_cdf) WHERE op IN ('INSERT', 'UPDATE', 'DELETE');
CREATE OR REFRESH STREAMING TABLE orders_current;
CREATE FLOW apply_orders AS AUTO CDC INTO orders_current FROM STREAM(orders_feed) KEYS (order_id)
  APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY ts COLUMNS * EXCEPT (op, ts) STORED AS SCD TYPE 2
  TRACK HISTORY ON (amount);

CREATE TEMPORARY VIEW products_feed AS
  SELECT * FROM STREAM(main.crm.products_cdf) WHERE op IN ('INSERT', 'UPDATE', 'DELETE');
CREATE OR REFRESH STREAMING TABLE products_current;
CREATE FLOW apply_products AS AUTO CDC INTO products_current FROM STREAM(products_feed) KEYS (sku)
  APPLY AS DELETE WHEN op = 'DELETE' SEQUENCE BY ts COLUMNS * EXCEPT (op, ts) STORED AS SCD TYPE 1;
