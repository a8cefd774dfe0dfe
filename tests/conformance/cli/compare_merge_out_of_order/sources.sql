-- Order status changes from an operational database, as a change data feed.
CREATE SCHEMA IF NOT EXISTS lab;

CREATE TABLE lab.orders_cdf (
  orderId INT,
  status STRING,
  amount DOUBLE,
  operation STRING,
  seq INT
);
