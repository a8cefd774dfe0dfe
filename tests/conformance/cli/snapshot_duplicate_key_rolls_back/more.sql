DELETE FROM snap WHERE id = 1;
INSERT INTO snap VALUES (2, 'c'), (3, 'd');
