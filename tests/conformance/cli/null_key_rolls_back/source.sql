CREATE TABLE events (id INT, v STRING, seq INT);
INSERT INTO events VALUES (1, "a", 1), (2, "b", 1);
