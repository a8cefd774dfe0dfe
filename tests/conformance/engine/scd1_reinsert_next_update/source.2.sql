INSERT INTO main.cdc_tutorial.users_cdf VALUES (123, "Isabel", "Monterrey", "INSERT", 7), (124, "Raul", "Puebla", "UPDATE", 0);
