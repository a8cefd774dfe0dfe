# A snapshot function that fails in the middle of an update, in the two ways a function can: it raises
# (when a file named "broken" is in the volume), or it offers a DataFrame over a table that does not exist.
from pyspark import pipelines as dp

SNAPSHOTS = "/Volumes/main/cdc_tutorial/snapshots/"


def next_snapshot(last):
    names = [f.name for f in dbutils.fs.ls(SNAPSHOTS)]
    if "broken" in names:
        raise ValueError("no snapshot store")
    if last is None:
        return (spark.read.table("main.cdc_tutorial.snapshot_1"), 1)
    if last == 1 and "snapshot_2.csv" in names:
        return (spark.read.table("main.cdc_tutorial.no_such_snapshot"), 2)
    return None


dp.create_streaming_table("target")
dp.create_auto_cdc_from_snapshot_flow(target="target", source=next_snapshot, keys=["userId"], stored_as_scd_type=2)
