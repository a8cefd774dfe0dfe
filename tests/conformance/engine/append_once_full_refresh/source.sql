CREATE TABLE archive (id INT, v STRING);
CREATE TABLE live (id INT, v STRING);
INSERT INTO archive VALUES (1, 'old-a'), (2, 'old-b');
INSERT INTO live VALUES (10, 'new-a');
