-- An append flow into a table the pipeline does not declare.
CREATE FLOW f AS INSERT INTO nowhere BY NAME SELECT id FROM STREAM(events);
