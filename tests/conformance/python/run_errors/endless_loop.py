# expect: 6:1 PYTHON_TIMEOUT did not finish within
from pyspark import pipelines as dp

def wait_for_files():
    found = []
    while not found: found = [f for f in found]

wait_for_files()
