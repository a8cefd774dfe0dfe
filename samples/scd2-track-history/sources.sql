-- The change data feed of the seed tutorial, created empty: its rows arrive through the event queue.
CREATE SCHEMA IF NOT EXISTS main.cdc_tutorial;

CREATE TABLE main.cdc_tutorial.users_cdf (
  userId INT,
  name STRING,
  city STRING,
  operation STRING,
  sequenceNum INT
);
