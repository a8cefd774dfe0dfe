INSERT INTO events VALUES (3, 'cy', 1.25), (1, 'ann', 2.0);
