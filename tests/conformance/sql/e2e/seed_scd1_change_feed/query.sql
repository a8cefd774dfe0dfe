SELECT userId, city, _change_type, _commit_version FROM table_changes('users_current', 1) ORDER BY userId
