# expect: 8:1 PARSE expected an expression
from pyspark import pipelines as dp
from pyspark.sql.functions import col, expr

dp.create_streaming_table("users_current")
dp.create_auto_cdc_flow(target="users_current", source="users", keys=["userId"], sequence_by=col("sequenceNum"),
                        apply_as_deletes=expr("operation = 'DELETE'"))
dp.create_auto_cdc_flow(target="users_current", source="users", keys=["userId"], sequence_by=col("sequenceNum"),
                        apply_as_deletes=expr("operation = = 'DELETE'"), name="second")
