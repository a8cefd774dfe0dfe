# The legacy dlt module: apply_changes, apply_changes_from_snapshot, create_target_table, @dlt.table / view.
import dlt
from pyspark.sql.functions import col


@dlt.view
def feed():
    return dlt.read_stream("main.raw.customers_cdf")


@dlt.table(name="snapshot_source")
def snapshot_source():
    return dlt.read("main.raw.customers_snapshot")


dlt.create_target_table("customers")
dlt.apply_changes(target="customers", source="feed", keys=["id"], sequence_by=col("ts"),
                  apply_as_deletes="op = 'DELETE'", except_column_list=["op", "ts"])
dlt.create_streaming_table("customers_snap")
dlt.apply_changes_from_snapshot(target="customers_snap", source="snapshot_source", keys=["id"])
