# Decorators with and without arguments, append flows, every create_auto_cdc_flow parameter and a
# snapshot flow from a table.
from pyspark import pipelines as dp
from pyspark.sql.functions import col, expr, struct

dp.create_streaming_table(
    name="events",
    comment="all events",
    table_properties={"pipelines.cdc.tombstoneGCThresholdInSeconds": "3600"},
    schema="id INT, kind STRING, ts BIGINT",
)


@dp.append_flow(target="events")
def web_events():
    return spark.readStream.table("main.raw.web")


@dp.append_flow(target="events", name="backfill", once=True)
def old_events():
    return spark.read.table("main.raw.archive")


@dp.table(comment="streaming copy")
def events_copy():
    return spark.readStream.table("events")


dp.create_streaming_table("customers")
dp.create_auto_cdc_flow(
    target="customers",
    source="customers_feed",
    keys=[col("id"), "region"],
    sequence_by=struct("ts", "txn_id"),
    ignore_null_updates=True,
    apply_as_deletes=col("op") == "DELETE",
    apply_as_truncates="op = 'TRUNCATE'",
    column_list=["id", "region", "name"],
    stored_as_scd_type="1",
    name="customers_flow",
)
dp.create_streaming_table("customers_history")
dp.create_auto_cdc_flow(
    target="customers_history",
    source="customers_feed",
    keys=["id"],
    sequence_by=expr("ts"),
    except_column_list=["op", "ts"],
    stored_as_scd_type=2,
    track_history_column_list=["name"],
    once=True,
)
dp.create_streaming_table("snap_target")
dp.create_auto_cdc_from_snapshot_flow(
    target="snap_target", source="main.raw.snapshot", keys=["id"], stored_as_scd_type=2,
    track_history_except_column_list=["note"])
dp.create_streaming_table("profiles")
dp.create_auto_cdc_flow(
    "profiles", "profiles_feed", ["id"], "ts",
    except_column_list=["op", "ts"],
    apply_as_deletes=expr("op = 'DELETE'"),
    columns_to_update=col("changed"),
)
dp.create_streaming_table("accounts")
dp.create_auto_cdc_flow(target="accounts", source="accounts_feed", keys=["id"], sequence_by="ts",
                        ignore_null_updates_column_list=[col("name")], stored_as_scd_type=1)
