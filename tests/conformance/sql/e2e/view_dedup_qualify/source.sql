-- A feed that delivers some events twice (same id and seq, a later ingest_id, a garbled name) and carries
-- an ingestion column the target must not get.
CREATE TABLE raw_events (id INT, name STRING, seq INT, op STRING, ingest_id INT);
INSERT INTO raw_events VALUES
  (1, 'Ann', 1, 'UPSERT', 100),
  (1, 'Ann?', 1, 'UPSERT', 101),
  (2, 'Bob', 1, 'UPSERT', 102),
  (1, 'Anne', 2, 'UPSERT', 103),
  (2, 'Bob?', 1, 'UPSERT', 104),
  (3, 'Cy', 1, 'UPSERT', 105),
  (3, NULL, 2, 'DELETE', 106),
  (3, NULL, 2, 'DELETE', 107);
