-- Both snapshot files are there before the first update, the newer one inserted first: one update
-- processes versions 1 and 2, in ascending order.
CREATE SCHEMA IF NOT EXISTS main.cdc_tutorial;
CREATE TABLE main.cdc_tutorial.snapshots (version BIGINT, userId INT, city STRING);
INSERT INTO main.cdc_tutorial.snapshots VALUES
  (2, 2, 'Carmel'), (2, 3, 'Los Angeles'), (2, 4, 'Death Valley'),
  (1, 1, 'Oaxaca'), (1, 2, 'Monterrey'), (1, 3, 'Tijuana');
