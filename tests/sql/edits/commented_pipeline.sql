-- Users pipeline: hand-formatted, with comments the designer must keep.
/* The source is read as a stream. */

create or refresh streaming table   users_history   ;   -- target

-- The flow, laid out by hand:
CREATE FLOW apply_cdc AS AUTO CDC INTO users_history
    FROM stream(main.cdc_tutorial.users_cdf)
    KEYS (userId)          -- one key
    APPLY AS DELETE WHEN operation = "DELETE"
    SEQUENCE BY sequenceNum
    STORED AS SCD TYPE 2
;

   CREATE   TEMPORARY VIEW recent AS
SELECT * FROM users_history WHERE sequenceNum > 5   -- no semicolon at the end
