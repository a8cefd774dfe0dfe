# expect: 6:1 PYTHON_CRASH crashed (Aborted)
import os
from pyspark import pipelines as dp

dp.create_streaming_table("t")
os.abort()
