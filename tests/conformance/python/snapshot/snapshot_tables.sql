-- The seed's two CSV snapshots as tables, for the table-based DataFrame of table_versioned_snapshot.py.
CREATE SCHEMA IF NOT EXISTS main.cdc_tutorial;
CREATE TABLE main.cdc_tutorial.snapshot_1 (userId INT, city STRING);
CREATE TABLE main.cdc_tutorial.snapshot_2 (userId INT, city STRING);
INSERT INTO main.cdc_tutorial.snapshot_1 VALUES (1, 'Oaxaca'), (2, 'Monterrey'), (3, 'Tijuana');
INSERT INTO main.cdc_tutorial.snapshot_2 VALUES (2, 'カーメル'), (3, 'ロサンゼルス'), (4, 'デスバレー');
