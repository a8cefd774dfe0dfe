CREATE SCHEMA IF NOT EXISTS main.cdc_tutorial;

CREATE TABLE main.cdc_tutorial.snapshots (
  version BIGINT,
  userId INT,
  city STRING
);

-- snapshot_1.csv
INSERT INTO main.cdc_tutorial.snapshots VALUES
  (1, 1, 'Oaxaca'),
  (1, 2, 'Monterrey'),
  (1, 3, 'Tijuana');
