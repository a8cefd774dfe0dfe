SELECT * FROM users_history ORDER BY userId, __START_AT
