CREATE TABLE snap (id INT, v STRING);
INSERT INTO snap VALUES (1, 'a'), (2, 'b');
