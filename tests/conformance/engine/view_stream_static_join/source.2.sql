-- A customer added to the static table after update 1: update 2 joins with it (the static side is read
-- at update time); order 12 keeps the NULL country it got in update 1.
INSERT INTO customers VALUES (3, 'ca');
INSERT INTO orders_cdc VALUES (13, 3, 40.0, 'I', 2), (10, 1, 5.0, 'D', 3);
