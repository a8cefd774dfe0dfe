# expect: 6:12 PYTHON_API the option 'readChangeFeed' of a table read is not supported
from pyspark import pipelines as dp

@dp.view
def changes():
    return spark.readStream.option("readChangeFeed", "true").table("main.cdc_tutorial.users")
