-- ADR 0142's candidate, for figure 7 only (Harness --beside slots): not a migration, never
-- installed by a store. SecondCommit takes version 19's ratchet_commit and replaces its
-- generation row, content row and retention's deletes by the upsert below, so each run keeps its
-- checkpoint and exactly N older ones in N + 1 slots rewritten in place. The table first, then the
-- upsert; ratchet-bench/scripts/commit-shapes.py reads the same two statements.

CREATE TABLE {schema}.ratchet_slots (
  task_id TEXT NOT NULL, run_id TEXT NOT NULL, slot INTEGER NOT NULL, generation BIGINT NOT NULL,
  content_digest TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (task_id, run_id, slot));

  INSERT INTO ratchet_slots AS k (task_id, run_id, slot, generation, content_digest, body)
  VALUES (p_task, p_run, v_next % (p_retain_older + 1), v_next, p_digest, p_body)
  ON CONFLICT (task_id, run_id, slot) DO UPDATE SET generation = excluded.generation,
     content_digest = excluded.content_digest, body = excluded.body;
