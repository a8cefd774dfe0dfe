# withColumn replaces a column of the same name in place, and unionByName matches columns by name, as in
# Spark: the file knows what * stands for from the project's tables.
from pyspark import pipelines as dp
from pyspark.sql.functions import col, expr, upper


@dp.temporary_view()
def customers_feed():
    web = spark.readStream.table("main.shop.customers_web")
    legacy = spark.readStream.table("customers_legacy")
    return web.unionByName(legacy).withColumn("name", upper(col("name"))).drop("op")


dp.create_streaming_table("customers")
dp.create_auto_cdc_flow(
    target="customers",
    source="customers_all",
    keys=["id"],
    sequence_by="ts",
    apply_as_deletes=expr("city IS NULL"),
    except_column_list=["ts"],
)


@dp.temporary_view()
def customers_all():
    return spark.readStream.table("customers_feed")
