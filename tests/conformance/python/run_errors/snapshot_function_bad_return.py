# expect: 9:1 PYTHON_API must return (DataFrame, version) or None
from pyspark import pipelines as dp

def next_snapshot(last):
    return spark.read.table("main.cdc_tutorial.snapshot")

dp.create_streaming_table("target")

dp.create_auto_cdc_from_snapshot_flow(
  target="target", source=next_snapshot, keys=["userId"])
