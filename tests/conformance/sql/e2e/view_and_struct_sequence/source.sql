CREATE TABLE raw_events (id INT, payload STRING, ts STRING, tiebreak INT, op STRING);
INSERT INTO raw_events VALUES
  (1, 'a', '2024-01-01 10:00:00', 1, 'UPSERT'),
  (1, 'b', '2024-01-01 10:00:00', 2, 'UPSERT'),
  (2, 'x', '2024-01-02 09:00:00', 1, 'UPSERT'),
  (2, NULL, '2024-01-03 09:00:00', 1, 'DELETE');
