CREATE SCHEMA IF NOT EXISTS lab;

CREATE TABLE lab.accounts_cdf (
  accountId INT,
  owner STRING,
  operation STRING,
  seq INT
);
