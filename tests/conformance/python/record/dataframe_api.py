# Every method of CDC Studio's DataFrame API, as the pipeline SQL it records.
from pyspark import pipelines as dp
from pyspark.sql import DataFrame
from pyspark.sql.functions import col, current_timestamp, expr, lit, upper, when


@dp.temporary_view
def orders_clean() -> DataFrame:
    return (
        spark.readStream.table("main.shop.orders")
        .where("amount > 0")
        .filter(col("status") != "CANCELLED")
        .select("order_id", "customer_id", col("amount").cast("double").alias("amount"), "status", "ts")
        .withColumn("amount", col("amount") * lit(100))
        .withColumn("loaded_at", current_timestamp())
        .drop("status")
    )


@dp.view(name="customers_v", comment="customers with their region")
def customers():
    c = spark.read.table("main.shop.customers").alias("c")
    r = spark.table("main.shop.regions").alias("r")
    return c.join(r, on="region_id", how="left").select(
        "c.customer_id", upper(col("r.name")).alias("region"),
        when(col("c.vip"), "gold").otherwise("standard").alias("tier"))


@dp.view
def all_orders():
    return dp.read_stream("orders_clean").union(spark.sql("SELECT * FROM STREAM(main.shop.orders_archive)"))


@dp.materialized_view(comment="orders per customer")
def big_orders():
    return dp.read("orders_clean").join(dp.read("customers_v"), col("orders_clean.customer_id") ==
                                        col("customers_v.customer_id")).where(expr("amount > 1000"))


@dp.table
def raw_files():
    return spark.read.format("json").load("/Volumes/main/shop/landing/orders/")


@dp.table(name="csv_files")
def raw_csv():
    return spark.read.format("csv").option("header", True).option("sep", ";").load("/Volumes/main/shop/landing/csv/")
