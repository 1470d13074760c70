#!/usr/bin/env python3
"""Issue 38's last two options for the eight-run write step, measured on the server alone.

Two side-by-side comparisons, alternating rounds on one PostgreSQL, printed raw with ratios of
medians (no JVM: pgbench, -M prepared, so both sides pay the same protocol):

  call   the cost of calling ratchet_commit's signature: 16 arguments (6 arrays) against the
         same records packed into one text[] and into one jsonb, each to a function that only
         reads its arguments, beside SELECT 1 (the price of any statement at all).
  ring   schema 20's commit (version 19's body, unchanged) against the same body keeping the N
         older checkpoints in N + 1 slots per run (one upsert instead of the generation row, the
         content row and retention's two deletes; ADR 0142), and against version 19's tables
         with the rows retention would delete updated into the new ones (recycled rows). Every
         call must commit (the runs' generations add up to the transactions pgbench counted) and
         every run must keep its checkpoint and exactly 3 older.

Usage: ratchet-bench/scripts/commit-shapes.py [--seconds 15] [--rounds 3] [--clients 8]
                                              [--only call|ring]
Needs pgbench and psql, PostgreSQL on 127.0.0.1:5432 with trust auth (as on the dev machine),
and ./ratchet (run from the repository root) to create the schema with `ratchet db init`.
It creates and drops the database ratchet_commit_shapes. A measurement, not a test.
"""
import argparse, hashlib, json, os, random, re, statistics, string, subprocess, sys, tempfile

DB = "ratchet_commit_shapes"
PG = ["-h", "127.0.0.1", "-U", "postgres"]
V19 = "ratchet-jdbc/src/main/resources/dev/ratchet/jdbc/schema/postgresql/" \
      "V19__commit_checks_what_only_the_server_can.sql"
SLOTS = "ratchet-bench/src/main/resources/dev/ratchet/bench/checkpoint-slots.sql"
TOKEN = "\\x" + "11" * 32


def psql(sql, db=DB):
    return subprocess.run(["psql", *PG, "-d", db, "-v", "ON_ERROR_STOP=1", "-qAtc", sql],
                          check=True, capture_output=True, text=True).stdout.strip()


def pgbench(script, seconds, clients, defs):
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as f:
        f.write(script)
    args = ["pgbench", *PG, "-d", DB, "-n", "-M", "prepared", "-c", str(clients), "-j", "2",
            "-T", str(seconds), "-f", f.name]
    for k, v in defs.items():
        args += ["-D", f"{k}={v}"]
    out = subprocess.run(args, capture_output=True, text=True)
    os.unlink(f.name)
    if out.returncode != 0:
        sys.exit("pgbench failed: " + out.stderr[-2000:])
    done = int(re.search(r"actually processed: (\d+)", out.stdout).group(1))
    tps = float(re.search(r"tps = ([\d.]+) \(without", out.stdout).group(1))
    return done, tps


def variants():
    """Version 19's body as bench_cur, with checkpoint slots as bench_ring, with recycled rows as
    bench_recycle."""
    src = open(V19).read().replace("{schema}", "ratchet")
    body = src[src.index("CREATE OR REPLACE FUNCTION ratchet_commit("):]
    cur = body.replace("FUNCTION ratchet_commit(", "FUNCTION ratchet.bench_cur(")
    gen = body.index("  INSERT INTO ratchet_generations AS g")
    recs = body.index("  -- Records as the writer linked them")
    content = body.index("  INSERT INTO ratchet_checkpoints AS k")
    end = body.index("END $$;")
    # ADR 0142's candidate: the table and the upsert that figure 7's --beside slots uses too.
    parts = open(SLOTS).read()
    table_at = parts.index("CREATE TABLE {schema}.")
    table_end = parts.index(";", table_at) + 1
    table = parts[table_at:table_end].replace("{schema}", "ratchet")
    upsert = parts[table_end:].strip()
    ring = (body[:gen] + body[recs:content] + "  " + upsert + "\n"
            + body[end:]).replace("FUNCTION ratchet_commit(", "FUNCTION ratchet.bench_ring(")
    retention = body.index("  IF v_from < v_floor THEN")
    recycle = (body[:gen] + body[recs:content] + RECYCLE + body[retention:]).replace(
        "FUNCTION ratchet_commit(", "FUNCTION ratchet.bench_recycle(").replace(
        "  v_gone TEXT;", "  v_gone TEXT;\n  v_done BOOLEAN := FALSE;").replace(
        "  IF v_from < v_floor THEN", "  IF NOT v_done AND v_from < v_floor THEN", 1)
    return table + "\n" + cur + "\n" + ring + "\n" + recycle


# Version 19's tables and readers, but the rows retention would delete are reused: in the steady
# state (one generation leaves the window) the leaving generation row becomes the new one, and its
# content row too unless another retained generation still names it or the new content exists.
RECYCLE = """  IF v_from = v_floor - 1 AND NOT EXISTS (SELECT 1 FROM ratchet_checkpoints k
      WHERE k.task_id = p_task AND k.run_id = p_run AND k.content_digest = p_digest) THEN
    SELECT g.content_digest INTO v_gone FROM ratchet_generations g
     WHERE g.task_id = p_task AND g.run_id = p_run AND g.generation = v_from;
    IF FOUND THEN
      UPDATE ratchet_generations g SET generation = v_next, content_digest = p_digest
       WHERE g.task_id = p_task AND g.run_id = p_run AND g.generation = v_from;
      UPDATE ratchet_checkpoints k SET content_digest = p_digest, generation = v_next, body = p_body
       WHERE k.task_id = p_task AND k.run_id = p_run AND k.content_digest = v_gone
         AND NOT EXISTS (SELECT 1 FROM ratchet_generations r
                          WHERE r.task_id = p_task AND r.run_id = p_run
                            AND r.generation >= v_floor AND r.content_digest = v_gone);
      IF NOT FOUND THEN
        INSERT INTO ratchet_checkpoints (task_id, run_id, content_digest, generation, body)
        VALUES (p_task, p_run, p_digest, v_next, p_body);
      END IF;
      v_done := TRUE;
    END IF;
  END IF;
  IF NOT v_done THEN
    INSERT INTO ratchet_generations AS g (task_id, run_id, generation, content_digest)
    VALUES (p_task, p_run, v_next, p_digest)
    ON CONFLICT (task_id, run_id, generation) DO UPDATE SET content_digest = excluded.content_digest;
    INSERT INTO ratchet_checkpoints AS k (task_id, run_id, content_digest, generation, body)
    VALUES (p_task, p_run, p_digest, v_next, p_body)
    ON CONFLICT (task_id, run_id, content_digest) DO UPDATE
       SET generation = GREATEST(k.generation, excluded.generation);
  END IF;
"""

CALL_FUNCTIONS = """
CREATE FUNCTION ratchet.call16(p_task TEXT, p_run TEXT, p_instance TEXT, p_expected BIGINT,
  p_digest TEXT, p_body TEXT, p_owner TEXT, p_lease_version BIGINT, p_token BYTEA,
  p_retain_older INTEGER, p_sets TEXT[], p_sequences BIGINT[], p_keys TEXT[], p_key_json TEXT[],
  p_bodies TEXT[], p_chains TEXT[], OUT o_rows INTEGER, OUT o_judged_at_ms BIGINT)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ratchet, pg_temp AS $$
BEGIN
  o_rows := cardinality(p_sets) + cardinality(p_sequences) + cardinality(p_keys)
    + cardinality(p_key_json) + cardinality(p_bodies) + cardinality(p_chains);
  o_judged_at_ms := length(p_body) + length(p_bodies[1]) + length(p_chains[1]);
END $$;
CREATE FUNCTION ratchet.call_packed(p_task TEXT, p_run TEXT, p_instance TEXT, p_expected BIGINT,
  p_digest TEXT, p_body TEXT, p_owner TEXT, p_lease_version BIGINT, p_token BYTEA,
  p_retain_older INTEGER, p_records TEXT[], OUT o_rows INTEGER, OUT o_judged_at_ms BIGINT)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ratchet, pg_temp AS $$
BEGIN
  o_rows := cardinality(p_records);
  o_judged_at_ms := length(p_body) + length(p_records[3]) + length(p_records[4]);
END $$;
CREATE FUNCTION ratchet.call_jsonb(p_task TEXT, p_run TEXT, p_instance TEXT, p_expected BIGINT,
  p_digest TEXT, p_body TEXT, p_owner TEXT, p_lease_version BIGINT, p_token BYTEA,
  p_retain_older INTEGER, p_records JSONB, OUT o_rows INTEGER, OUT o_judged_at_ms BIGINT)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ratchet, pg_temp AS $$
BEGIN
  o_rows := jsonb_array_length(p_records);
  o_judged_at_ms := length(p_body) + length(p_records->0->>'b');
END $$;
"""


def shaped(n):
    """Printable, poorly compressible text of n characters (PostgreSQL compresses above ~2 KB)."""
    return "".join(random.choice(string.ascii_letters + string.digits) for _ in range(n))


def array(xs):
    return "{" + ",".join('"' + x.replace("\\", "\\\\").replace('"', '\\"') + '"' for x in xs) + "}"


def call_rounds(a, content, record, chain):
    sets = ["trace", "receipts", "intents", "evidence"]
    keys = [f"act-{i}-0123456789abcdef" for i in range(4)]
    defs = {"ck": content, "sets": array(sets), "seqs": "{11,12,13,14}", "keys": array(keys),
            "keyjson": array([json.dumps(k) for k in keys]), "bodies": array([record] * 4),
            "chains": array([chain] * 4),
            "packed": array([x for i in range(4) for x in (sets[i], keys[i], record, chain)]),
            "json": json.dumps([{"s": sets[i], "q": 11 + i, "k": keys[i], "b": record, "c": chain}
                                for i in range(4)])}
    head = ("SELECT * FROM ratchet.{f}('task', 'run-1', 'inst', 41, 'digest', :ck, 'w', 1,"
            f" '{TOKEN}'::bytea, 3, {{rest}});\n")
    scripts = {"SELECT 1": "SELECT 1;\n",
               "16 arguments (6 arrays)": head.format(
                   f="call16", rest=":sets, :seqs, :keys, :keyjson, :bodies, :chains"),
               "11 arguments (records in one text[])": head.format(f="call_packed", rest=":packed"),
               "11 arguments (records in one jsonb)": head.format(f="call_jsonb", rest=":json")}
    tps = {k: [] for k in scripts}
    for r in range(a.rounds):
        for name, script in scripts.items():
            tps[name].append(pgbench(script, a.seconds, a.clients, defs)[1])
            print(f"  call round {r}: {name}: {tps[name][-1]:,.0f} calls/s", flush=True)
    base = statistics.median(tps["SELECT 1"])
    for name, xs in tps.items():
        m = statistics.median(xs)
        extra = (2 / m - 2 / base) * 1e6  # µs of 2 cores per call beyond SELECT 1
        print(f"call: {name}: median {m:,.0f} calls/s; about {extra:.1f} µs of the 2 cores per call"
              " beyond SELECT 1")


def ring_rounds(a, content, record, chain):
    script = ("SELECT o_rows FROM ratchet.{f}('task', 'run-' || :client_id, 'inst', :g,"
              f" md5(:g::text), :ck, 'w', 1, '{TOKEN}'::bytea, 3,"
              " ARRAY['trace','receipts','intents','evidence'], ARRAY[:g+1,:g+1,:g+1,:g+1]::bigint[],"
              " ARRAY['k'||:g,'k'||:g,'k'||:g,'k'||:g], ARRAY['\"k\"','\"k\"','\"k\"','\"k\"'],"
              " ARRAY[:rb,:rb,:rb,:rb]::text[], ARRAY[:ch,:ch,:ch,:ch]::text[]);\n\\set g :g + 1\n")
    tps = {"bench_cur": [], "bench_ring": [], "bench_recycle": []}
    for r in range(a.rounds):
        for f in tps:
            psql("TRUNCATE ratchet.ratchet_marks, ratchet.ratchet_generations, ratchet.ratchet_records,"
                 " ratchet.ratchet_checkpoints, ratchet.ratchet_slots, ratchet.ratchet_leases")
            psql("INSERT INTO ratchet.ratchet_leases (run_id, owner, version, expires_at_ms, held,"
                 f" token_hash) SELECT 'run-' || i, 'w', 1, 9999999999999, 1,"
                 f" encode(sha256('{TOKEN}'::bytea), 'hex') FROM generate_series(0, {a.clients}) i")
            psql("VACUUM ANALYZE")
            psql("CHECKPOINT")
            done, t = pgbench(script.format(f=f), a.seconds, a.clients,
                              {"g": 0, "ck": content, "rb": record, "ch": chain})
            committed = int(psql("SELECT COALESCE(sum(generation), 0) FROM ratchet.ratchet_marks"))
            if committed != done:
                sys.exit(f"{f}: {done} transactions but {committed} generations committed")
            table = "ratchet_slots" if f == "bench_ring" else "ratchet_checkpoints"
            kept = psql(f"SELECT DISTINCT count(*) FROM ratchet.{table} GROUP BY run_id")
            if kept != "4":
                sys.exit(f"{f}: runs keep {kept!r} checkpoints each, not the current one and 3 older")
            tps[f].append(t)
            print(f"  ring round {r}: {f}: {t:,.0f} steps/s ({done} steps, all committed)", flush=True)
    cur = statistics.median(tps["bench_cur"])
    ring, recycle = statistics.median(tps["bench_ring"]), statistics.median(tps["bench_recycle"])
    print(f"ring: {a.clients} runs: version 19's body {cur:,.0f} steps/s; ring slots {ring:,.0f}"
          f" steps/s: {ring / cur:.2f}x; recycled rows {recycle:,.0f} steps/s: {recycle / cur:.2f}x")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--seconds", type=int, default=15)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--clients", type=int, default=8)
    p.add_argument("--only", choices=["call", "ring"], help="one of the two comparisons")
    a = p.parse_args()
    random.seed(38)
    content, record = shaped(2387), shaped(494)
    chain = hashlib.sha256(b"chain").hexdigest()
    psql(f"DROP DATABASE IF EXISTS {DB}", db="postgres")
    psql(f"CREATE DATABASE {DB}", db="postgres")
    try:
        home = tempfile.mkdtemp()
        subprocess.run(["./ratchet", "db", "init", f"--home={home}",
                        f"--store=jdbc:postgresql://127.0.0.1:5432/{DB}?user=postgres"],
                       check=True, capture_output=True, env={**os.environ, "RATCHET_PG_USER": "postgres"})
        psql(variants())
        psql(CALL_FUNCTIONS)
        print(f"commit-shapes: {a.rounds} rounds of {a.seconds} s, {a.clients} clients;"
              f" load average {os.getloadavg()[0]:.2f}", flush=True)
        if a.only != "ring":
            call_rounds(a, content, record, chain)
        if a.only == "call":
            return
        ring_rounds(a, content, record, chain)
        if a.clients != 1:
            one = argparse.Namespace(**{**vars(a), "clients": 1})
            ring_rounds(one, content, record, chain)
        print(f"load average at the end {os.getloadavg()[0]:.2f}")
    finally:
        psql(f"DROP DATABASE IF EXISTS {DB}", db="postgres")


if __name__ == "__main__":
    main()
