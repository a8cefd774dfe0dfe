INSERT INTO main.cdc_tutorial.users_cdf VALUES (127, 'Ana', 'Puebla', 'INSERT', 7);
