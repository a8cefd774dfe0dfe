CREATE TABLE users (id INT, name STRING, seq INT, op STRING);
INSERT INTO users VALUES (1, 'a', 1, 'U'), (2, 'b', 2, 'U'), (3, 'c', 3, 'U'), (4, 'd', 4, 'U');
