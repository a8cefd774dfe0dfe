SELECT id, seq, amount, due FROM open_orders ORDER BY id
