# expect: 4:9 PYTHON_API lies outside the volumes folder
from pyspark import pipelines as dp

files = dbutils.fs.ls("/Volumes/main/cdc/raw/../../../../../etc")
