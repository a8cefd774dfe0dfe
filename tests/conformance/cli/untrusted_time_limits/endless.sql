-- A copy of a join of six 128-row tables: 4 * 10^12 rows, never done.
CREATE TABLE copies AS SELECT a.id FROM users a, users b, users c, users d, users e, users f;
