INSERT INTO lab.accounts_cdf VALUES
  (1, "Ada",             "UPSERT", 1),
  (1, null,              "DELETE", 3),
  (1, "Ada (late)",      "UPSERT", 2),
  (2, "Grace",           "UPSERT", 1),
  (1, "Ada (very late)", "UPSERT", 2);
