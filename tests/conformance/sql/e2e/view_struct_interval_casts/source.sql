-- A feed whose change metadata is a struct and whose amount arrives as text.
CREATE TABLE raw_orders (id INT, meta STRUCT<op: STRING, seq: INT>, amount STRING, placed TIMESTAMP);
INSERT INTO raw_orders VALUES
  (1, named_struct('op', 'UPSERT', 'seq', 1), '10', '2024-01-31 10:00:00'),
  (2, named_struct('op', 'UPSERT', 'seq', 1), '9', '2024-01-15 08:30:00'),
  (3, named_struct('op', 'UPSERT', 'seq', 1), '120', '2024-03-31 23:00:00'),
  (1, named_struct('op', 'UPSERT', 'seq', 2), '15', '2024-02-29 12:00:00'),
  (3, named_struct('op', 'DELETE', 'seq', 2), '120', '2024-03-31 23:00:00');
