INSERT INTO main.cdc_tutorial.users_cdf VALUES (124, 'Raul', 'Puebla', 'UPDATE', 8);
