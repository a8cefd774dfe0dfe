SELECT * FROM users_current ORDER BY userId
