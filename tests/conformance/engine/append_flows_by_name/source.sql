CREATE TABLE web_orders (order_id INT, customer STRING, total DOUBLE);
CREATE TABLE shop_orders (order_id INT, total DOUBLE, store STRING);
INSERT INTO web_orders VALUES (1, 'ann', 10.0);
INSERT INTO shop_orders VALUES (100, 5.5, 'north'), (101, 7.0, 'south');
