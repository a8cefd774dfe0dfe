-- A flow reading a name that is neither a table nor a dataset of the pipeline.
CREATE OR REFRESH STREAMING TABLE t AS SELECT * FROM STREAM(evnts);
