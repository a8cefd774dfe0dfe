INSERT INTO web_orders VALUES (2, 'bob', 3.0);
