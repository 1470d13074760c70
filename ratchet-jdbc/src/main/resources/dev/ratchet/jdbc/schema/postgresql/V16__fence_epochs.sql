-- PostgreSQL schema, version 16 (issue 43, ADR 0121): a lease
-- version never goes backwards across a promotion. Asynchronous replication may lose the last lease grants with the primary; the
-- promoted standby would then hand the same version out again, and an old worker and the new
-- holder would present one fence to a service that refuses only older ones. Every grant now takes
-- its version from at least the floor of the cluster's current timeline, (timeline - 1) * 2^32 + 1:
-- a promotion moves to a higher timeline, so every version granted after it is above every version
-- the old primary could have granted. Timeline 1 (a cluster never promoted) keeps the versions it
-- had (floor 1). The trigger, not the grant function, carries the rule, so every path that grants
-- (ratchet_grant, ratchet_claim, any later one) passes through it. A version at the next
-- timeline's floor is refused rather than wrapped (2^32 grants of one run on one timeline).
-- Released: never edit this file; add the next version instead. Statements end with ';' at the end
-- of a line outside $$ bodies.
-- description: lease versions start at the floor of the cluster's timeline (fence epochs)

-- The floor of the timeline WAL is written on now: the first 8 hex digits of the current WAL
-- file's name. Only a server that accepts writes can grant, and its insert timeline is final.
CREATE FUNCTION ratchet_fence_floor() RETURNS BIGINT
LANGUAGE sql VOLATILE SET search_path = {schema}, pg_temp AS $$
  SELECT ((('x' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8))::bit(32)::bigint - 1)
          << 32) + 1 $$;

CREATE FUNCTION ratchet_lease_epoch() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
DECLARE
  v_floor BIGINT;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.version = OLD.version THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'UPDATE' AND NEW.version < OLD.version THEN
    RAISE EXCEPTION 'ratchet_leases: version of run % would go back', NEW.run_id
      USING ERRCODE = '23514';
  END IF;
  v_floor := ratchet_fence_floor();
  IF NEW.version < v_floor THEN
    NEW.version := v_floor;
  ELSIF NEW.version >= v_floor + 4294967296 THEN
    RAISE EXCEPTION 'ratchet_leases: version of run % reached the next timeline''s range',
      NEW.run_id USING ERRCODE = '23514';
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER ratchet_lease_epoch BEFORE INSERT OR UPDATE OF version ON ratchet_leases
  FOR EACH ROW EXECUTE FUNCTION ratchet_lease_epoch();

REVOKE ALL ON FUNCTION ratchet_fence_floor() FROM PUBLIC;
REVOKE ALL ON FUNCTION ratchet_lease_epoch() FROM PUBLIC;
