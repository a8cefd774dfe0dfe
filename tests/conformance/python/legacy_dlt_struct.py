import dlt
from pyspark.sql.functions import col, struct

dlt.create_streaming_table(
    name="customers",
    table_properties={"pipelines.cdc.tombstoneGCThresholdInSeconds": "60"},
)

dlt.apply_changes(
    target="customers",
    source="customers_cdc",
    keys=["id", "region"],
    sequence_by=struct("ts", "txn_id"),
    ignore_null_updates=True,
    column_list=["id", "region", "email"],
    name="customers_flow",
)
