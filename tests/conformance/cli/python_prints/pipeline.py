import sys
from pyspark import pipelines as dp

TABLES = ["customers", "orders"]
print(f"declaring {len(TABLES)} tables")
for t in TABLES:
    dp.create_streaming_table(t)
print("done", file=sys.stderr)
