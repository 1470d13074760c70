-- PostgreSQL schema, version 9 (issue 16): the database clock, ratchet_now_ms, made inlinable.
-- Version 1 declared it LANGUAGE sql with a SET search_path clause; a function with a SET clause is
-- never inlined, so every call inside ratchet_commit and the lease functions parsed and planned its
-- body again (one call per transaction): about 8 % of a commit's server CPU under 8 runs (perf).
-- Without the clause the planner inlines the expression where it is called. Every name in the body
-- is qualified with pg_catalog, the operator too, so no search_path, a caller's or pg_temp, can
-- change what it computes; it is not SECURITY DEFINER, so it never ran with more rights than its
-- caller. The same clock in epoch milliseconds (date_part's double precision, which is what
-- extract returned before PostgreSQL 14: the two can differ only in rounding below the
-- millisecond), the same name, signature, owner and grants (CREATE OR REPLACE keeps them); a test
-- that pins the clock still replaces it.
-- Released: never edit this file; add the next version instead. Statements end with ';' at the end
-- of a line outside $$ bodies.
-- description: ratchet_now_ms inlinable (no SET clause, names qualified)

CREATE OR REPLACE FUNCTION ratchet_now_ms() RETURNS BIGINT
LANGUAGE sql VOLATILE
AS $$ SELECT pg_catalog.floor(pg_catalog.date_part('epoch', pg_catalog.clock_timestamp())
  OPERATOR(pg_catalog.*) 1000)::bigint $$;
