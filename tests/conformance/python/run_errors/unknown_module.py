# expect: 3:1 PYTHON_EXCEPTION ModuleNotFoundError: No module named 'pyspark_helpers'
from pyspark import pipelines as dp
import pyspark_helpers
