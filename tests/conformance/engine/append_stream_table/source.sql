CREATE TABLE events (id INT, name STRING, amount DOUBLE);
INSERT INTO events VALUES (1, 'ann', 10.0), (2, 'bob', 20.5);
