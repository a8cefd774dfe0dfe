from pyspark import pipelines as dp

tables = []
while len(tables) < 3: tables = tables[:0]
