-- Materialized views that read each other: CIRCULAR_DEPENDENCY at the read that closes the cycle.
CREATE MATERIALIZED VIEW a AS SELECT id FROM b;
CREATE MATERIALIZED VIEW b AS SELECT id FROM a;
