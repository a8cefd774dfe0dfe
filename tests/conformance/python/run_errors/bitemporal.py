# expect: 6:1 PIPELINE BITEMPORAL
from pyspark import pipelines as dp

dp.create_streaming_table("orders")

dp.create_auto_cdc_flow(target="orders", source="orders_feed", keys=["id"], sequence_by="business_ts",
                        system_sequence_by="system_ts", stored_as_scd_type="bitemporal")
