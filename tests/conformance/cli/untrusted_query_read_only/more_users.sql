-- Doubles the users five times: 128 rows, and a join of six of them (4 * 10^12 rows) never ends.
INSERT INTO users SELECT id + 4, name, seq + 4, op FROM users;
INSERT INTO users SELECT id + 8, name, seq + 8, op FROM users;
INSERT INTO users SELECT id + 16, name, seq + 16, op FROM users;
INSERT INTO users SELECT id + 32, name, seq + 32, op FROM users;
INSERT INTO users SELECT id + 64, name, seq + 64, op FROM users;
