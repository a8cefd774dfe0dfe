# expect: 6:12 PYTHON_API DataFrame.toPandas is not supported
from pyspark import pipelines as dp

@dp.view
def users():
    return spark.readStream.table("main.cdc_tutorial.users_cdf").toPandas()
