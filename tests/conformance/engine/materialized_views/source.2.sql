INSERT INTO main.cdc_tutorial.users_cdf VALUES (127, 'Rosa', 'Oaxaca', 'INSERT', 7);
