CREATE TABLE events (id INT, name STRING, seq INT);
INSERT INTO events VALUES (1, 'a', 1);
CREATE TABLE other (id INT, name INT);
