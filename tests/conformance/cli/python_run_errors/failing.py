from pyspark import pipelines as dp
from pyspark.sql.functions import col, expr

@dp.view
def users():
  return spark.readStream.table("main.cdc_tutorial.users_cdf")

dp.create_streaming_table("users_current")

dp.create_auto_cdc_flow(
  target = "users_current",
  source = "users",
  keys = ["userId"],
  sequence_by = col("sequenceNum"),
  apply_as_deletes = expr("operation = 'DELETE'"),
  apply_as_truncates = expr("operation = 'TRUNCATE'"),
  except_column_list = ["operation", "sequenceNum"],
  stored_as_scd_type = 1
)

def next_snapshot(last):
  if last is None:
    return (spark.read.table("main.cdc_tutorial.users_cdf").where("operation = 'INSERT'").select("userId", "city"), 1)
  raise RuntimeError("the snapshot store is offline")

dp.create_streaming_table("cities")
dp.create_auto_cdc_from_snapshot_flow(target = "cities", source = next_snapshot, keys = ["userId"])
