INSERT INTO main.crm.customers_cdf VALUES (3, 'Linus', 'INSERT', 4), (1, 'Ada K.', 'UPDATE', 2);
INSERT INTO main.crm.orders_cdf VALUES (12, 3.25, 'INSERT', 5);
INSERT INTO main.crm.products_cdf VALUES ('B-2', 'Desk v2', 'INSERT', 6);
