INSERT INTO main.shop.customers_web VALUES (3, NULL, NULL, 'DELETE', 5);
INSERT INTO main.shop.customers_legacy VALUES (6, 'Washington', 'UPSERT', 2, 'grace b. hopper');
