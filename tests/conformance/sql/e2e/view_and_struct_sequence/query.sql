SELECT id, payload, ts FROM current_state ORDER BY id
