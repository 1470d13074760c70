package dev.ratchet.chaos;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.jdbc.OpenMode;
import dev.ratchet.jdbc.StoreOptions;
import dev.ratchet.jdbc.TraceAudit;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.RunState;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.sign.KeyRing;
import dev.ratchet.sign.SecretKey;
import dev.ratchet.store.RecordSet;
import dev.ratchet.testkit.InMemoryWorkspace;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.RuntimeFixture;
import dev.ratchet.testkit.SeededEntropy;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Tamper campaign (issue #8 item 2). A trial builds a real SQLite store holding two runs of the
 * teaching task (reads, an approved and executed append, a second pending append awaiting its
 * approval), then applies seeded mutations of the stored rows behind the store's back (a raw JDBC
 * connection), one at a time: each must change bytes; the full verifier ({@link Ratchet#verify}
 * plus {@link TraceAudit} over every growing set against the signed heads) must refuse it with
 * {@code CHECKPOINT} and never with another code or exception type; the original rows are then
 * written back and the unmutated control must load again.
 *
 * <p>The canary ({@code --canary}) drops the {@link TraceAudit} walk from the verifier: edits of a
 * record inside a set that leave the head alone are then accepted, and the trial must fail.
 */
final class TamperCampaign {
  static final Set<ErrorCode> EXPECTED = EnumSet.of(ErrorCode.CHECKPOINT);
  static final String[] RUNS = {"run-a", "run-b"};

  private TamperCampaign() {}

  static int mutationsPerTrial(Mode mode, boolean canary) {
    if (canary) {
      return 200; // enough for the set edits the canary lets through
    }
    return mode == Mode.SMOKE ? 500 : 2_000;
  }

  static TrialResult trial(long seed, Mode mode, boolean canary, Path work) throws Exception {
    Random rnd = new Random(seed);
    Tally t = new Tally();
    ManualClock clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
    StoreOptions options = StoreOptions.defaults(clock).withOpenMode(OpenMode.CREATE);
    Path file = work.resolve("store.db");
    try (JdbcStore store = JdbcStore.open(Database.sqlite(file), options);
        Connection raw = DriverManager.getConnection("jdbc:sqlite:" + file)) {
      try (Statement s = raw.createStatement()) {
        s.execute("PRAGMA busy_timeout=5000");
        s.execute("PRAGMA synchronous=OFF");
      }
      RuntimeFixture f = new RuntimeFixture(seed, clock, store, store);
      TaskSpec task = f.task("append_file");
      Map<String, InMemoryWorkspace> ws = new LinkedHashMap<>();
      Map<String, String> writeKeys = new LinkedHashMap<>();
      for (String run : RUNS) {
        ws.put(run, f.workspace());
        writeKeys.put(run, drive(f, task, run, ws.get(run), rnd));
      }
      SeededEntropy keys = new SeededEntropy(seed ^ 0x5eed);
      SecretKey revoked = SecretKey.checkpoint("ckpt-0", keys.bytes(32));
      // The verifier trusts the signing key, knows ckpt-0 was revoked.
      KeyRing ring = KeyRing.of(f.checkpointKey, revoked).revoke("ckpt-0");
      Ratchet verifier =
          Ratchet.builder()
              .store(store)
              .leases(store)
              .checkpointKeys(ring)
              .approvers(f.approvers)
              .reviewers(f.reviewers)
              .clock(clock)
              .entropy(f.entropy)
              .workerId("auditor")
              .build();
      Mutations mutations =
          new Mutations(
              rnd,
              new Mutations.Keys(
                  f.checkpointKey,
                  SecretKey.checkpoint(f.checkpointKey.id(), keys.bytes(32)),
                  revoked,
                  SecretKey.checkpoint("ckpt-9", keys.bytes(32))));
      Map<String, StoredRows> originals = new LinkedHashMap<>();
      Map<String, List<String>> actingControls = new LinkedHashMap<>();
      for (String run : RUNS) {
        originals.put(run, StoredRows.read(raw, task.taskId(), run));
        control(verifier, store, task, run, ws.get(run), t, "before any mutation");
        List<String> acting =
            ActingPath.attempt(verifier, task, run, ws.get(run).copy(), writeKeys.get(run));
        actingControls.put(run, acting);
        if (acting.equals(ActingPath.REFUSED) || acting.toString().contains("refused")) {
          t.fail("the unmutated control of " + run + " did not act: " + acting);
        }
        originals.get(run).write(raw);
      }
      Mutations.Kind[] kinds = Mutations.Kind.values();
      int target = mutationsPerTrial(mode, canary);
      int tried = 0;
      while (t.get("mutations") < target && tried++ < target * 3) {
        String run = RUNS[rnd.nextInt(RUNS.length)];
        String other = run.equals(RUNS[0]) ? RUNS[1] : RUNS[0];
        StoredRows original = originals.get(run);
        Mutations.Kind kind = kinds[rnd.nextInt(kinds.length)];
        StoredRows mutated;
        try {
          mutated = mutations.apply(kind, original, originals.get(other));
        } catch (Mutations.NotApplicable e) {
          t.inc("not_applicable");
          continue;
        }
        String where = kind + " #" + t.get("mutations") + " of " + run;
        if (mutated.equals(original)) {
          t.fail(where + ": the mutation changed no byte");
          continue;
        }
        try {
          mutated.write(raw);
        } catch (SQLException e) {
          t.inc("refused_by_sqlite_constraints"); // e.g. a bit flip that duplicates a record key
          continue;
        }
        if (!StoredRows.read(raw, task.taskId(), run).equals(mutated)) {
          t.fail(where + ": the database does not hold the mutated rows");
        }
        t.inc("mutations");
        t.inc("kind." + kind.name().toLowerCase(java.util.Locale.ROOT));
        String verdict = verdict(verifier, store, task, run, ws.get(run), canary);
        if (verdict.equals("CHECKPOINT")) {
          t.inc("refused");
        } else if (verdict.equals("accepted")) {
          t.inc("accepted");
          t.fail(where + ": accepted");
        } else {
          t.inc("unexpected");
          t.fail(where + ": refused with " + verdict);
        }
        if (!canary) {
          acting(verifier, task, run, ws.get(run), writeKeys.get(run), actingControls, t, where);
        }
        original.write(raw);
        if (t.get("mutations") % 64 == 0) {
          control(verifier, store, task, run, ws.get(run), t, "after " + where);
        }
      }
      for (String run : RUNS) {
        if (!StoredRows.read(raw, task.taskId(), run).equals(originals.get(run))) {
          t.fail("the original rows of " + run + " were not restored");
        }
        control(verifier, store, task, run, ws.get(run), t, "at the end");
      }
      if (t.get("mutations") < target) {
        t.fail("only " + t.get("mutations") + " of " + target + " mutations were applied");
      }
    }
    return t.result(seed);
  }

  /**
   * The acting path on the mutated rows (D20): refused with {@code CHECKPOINT}, or outcomes, files
   * and ledger equal to the unmutated control's. Anything else acted on a tampered record.
   */
  private static void acting(
      Ratchet actor,
      TaskSpec task,
      String run,
      InMemoryWorkspace pristine,
      String writeKey,
      Map<String, List<String>> controls,
      Tally t,
      String where) {
    List<String> got = ActingPath.attempt(actor, task, run, pristine.copy(), writeKey);
    t.inc("acting_attempts");
    if (got.equals(ActingPath.REFUSED)) {
      t.inc("acting_refused");
    } else if (got.equals(controls.get(run))) {
      t.inc("acting_unchanged");
    } else if (ActingPath.refusedWithoutEffect(got, controls.get(run), pristine)) {
      t.inc("acting_refused_other");
    } else {
      t.inc("acting_used_tampered");
      t.fail(
          where
              + ": the acting path used a tampered record: "
              + got
              + "; the control: "
              + controls.get(run));
    }
  }

  /**
   * A few steps of the teaching task with a seeded number of reads in between; returns the key of
   * its write.
   */
  private static String drive(
      RuntimeFixture f, TaskSpec task, String runId, InMemoryWorkspace ws, Random rnd) {
    try (Run run = f.ratchet("writer").start(task, runId, ws)) {
      int step = 0;
      for (int i = 0; i < 1 + rnd.nextInt(4); i++) {
        run.apply(run.action("r" + step++, "read_file", path("app.py")));
      }
      String key =
          run.apply(
                  run.action(
                      "w" + step++,
                      "write_file",
                      path("app.py")
                          .with("content", new dev.ratchet.json.JsonString(RuntimeFixture.FIXED))))
              .receipt()
              .idempotencyKey();
      for (int n = 0; n < 2; n++) {
        String id = "a" + step++;
        Proposal p =
            run.propose(
                run.action(
                    id,
                    "append_file",
                    path("log.txt").with("content", new dev.ratchet.json.JsonString("line " + n))));
        if (p.kind() != Proposal.Kind.PENDING) {
          throw new IllegalStateException(
              "an approval-gated append should be pending: " + p.kind());
        }
        f.approvePending(run, task, Duration.ofHours(1));
        if (n == 0) {
          run.execute(id); // consumes the nonce, records the receipt; the second stays pending
        }
      }
      return key;
    }
  }

  private static JsonObject path(String p) {
    return JsonObject.builder().put("path", p).build();
  }

  /** The verifier's answer: "accepted", an error code, or the unexpected exception type. */
  static String verdict(
      Ratchet verifier,
      JdbcStore store,
      TaskSpec task,
      String runId,
      InMemoryWorkspace ws,
      boolean canary) {
    try {
      RunState s = verifier.verify(task, runId, ws);
      if (canary) {
        return "accepted"; // the canary skips the audit of the sets: edits inside them pass
      }
      for (RecordSet set : RecordSet.values()) {
        TraceAudit.verify(store, task.taskId(), runId, set, s.head(set)).requireIntact();
      }
      return "accepted";
    } catch (RatchetException e) {
      return EXPECTED.contains(e.code()) ? e.code().name() : "code " + e.code() + ": " + e;
    } catch (RuntimeException | Error e) {
      return "exception " + e;
    }
  }

  private static void control(
      Ratchet verifier,
      JdbcStore store,
      TaskSpec task,
      String runId,
      InMemoryWorkspace ws,
      Tally t,
      String when) {
    String v = verdict(verifier, store, task, runId, ws, false);
    t.inc("control_checks");
    if (!v.equals("accepted")) {
      t.fail("the unmutated control of " + runId + " did not load " + when + ": " + v);
    }
  }
}
