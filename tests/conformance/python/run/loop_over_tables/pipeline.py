# Flows made in a loop over a list of tables, with a config dict and a helper function: a pipeline written
# the way people write Python, run for real.
from pyspark import pipelines as dp
from pyspark.sql.functions import col, expr

CATALOG = "main.crm"
TABLES = {
    "customers": {"keys": ["id"], "scd": 1},
    "orders": {"keys": ["order_id"], "scd": 2, "history": ["amount"]},
    "products": {"keys": ["sku"], "scd": 1},
}


def cdc_source(name):
    @dp.view(name=f"{name}_feed")
    def feed():
        return spark.readStream.table(f"{CATALOG}.{name}_cdf").filter(col("op").isin("INSERT", "UPDATE", "DELETE"))
    return f"{name}_feed"


for table, config in sorted(TABLES.items()):
    source = cdc_source(table)
    dp.create_streaming_table(f"{table}_current")
    options = dict(
        target=f"{table}_current",
        source=source,
        keys=config["keys"],
        sequence_by=col("ts"),
        apply_as_deletes=expr("op = 'DELETE'"),
        except_column_list=["op", "ts"],
        stored_as_scd_type=config["scd"],
        name=f"apply_{table}",
    )
    if "history" in config:
        options["track_history_column_list"] = config["history"]
    dp.create_auto_cdc_flow(**options)
