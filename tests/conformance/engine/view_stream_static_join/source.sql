CREATE TABLE customers (customer_id INT, country STRING);
CREATE TABLE orders_cdc (order_id INT, customer_id INT, amount DOUBLE, op STRING, seq INT);
INSERT INTO customers VALUES (1, 'mx'), (2, 'us');
INSERT INTO orders_cdc VALUES (10, 1, 5.0, 'I', 1), (11, 2, 250.0, 'I', 1), (12, 3, 1.0, 'I', 1);
