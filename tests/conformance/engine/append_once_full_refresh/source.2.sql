INSERT INTO archive VALUES (3, 'old-c');
INSERT INTO live VALUES (11, 'new-b');
