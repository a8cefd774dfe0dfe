INSERT INTO events VALUES (1, "a2", 2), (NULL, "x", 3), (2, "b2", 2);
