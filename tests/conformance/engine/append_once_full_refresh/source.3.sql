INSERT INTO live VALUES (12, 'new-c');
