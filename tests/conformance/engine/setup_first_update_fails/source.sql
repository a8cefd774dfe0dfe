CREATE TABLE users_cdf (userId INT, name STRING, sequenceNum INT);
INSERT INTO users_cdf VALUES (1, 'ann', 1), (NULL, 'nobody', 2);
