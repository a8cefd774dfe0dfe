# expect: 9:12 PYTHON_EXCEPTION ZeroDivisionError: integer division or modulo by zero
from pyspark import pipelines as dp

TABLES = ["customers", "orders"]
CONFIG = {"customers": 2, "orders": 0}


def batch_size(table):
    return 100 // CONFIG[table]


for table in TABLES:
    dp.create_streaming_table(f"{table}_{batch_size(table)}")
