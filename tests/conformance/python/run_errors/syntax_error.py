# expect: 5:9 PYTHON_SYNTAX SyntaxError: invalid syntax
from pyspark import pipelines as dp

dp.create_streaming_table("t")
for x in
    pass
