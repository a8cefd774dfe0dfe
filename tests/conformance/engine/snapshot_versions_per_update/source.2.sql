-- snapshot_2.csv
INSERT INTO main.cdc_tutorial.snapshots VALUES
  (2, 2, 'Carmel'),
  (2, 3, 'Los Angeles'),
  (2, 4, 'Death Valley');
