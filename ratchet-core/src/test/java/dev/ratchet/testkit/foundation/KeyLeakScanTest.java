package dev.ratchet.testkit.foundation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Checkpoint;
import dev.ratchet.model.Phase;
import dev.ratchet.model.ReviewDecision;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.sign.Ed25519;
import dev.ratchet.sign.Hmac;
import dev.ratchet.sign.KeyRing;
import dev.ratchet.sign.SecretKey;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.store.CheckpointEnvelope;
import dev.ratchet.store.Fence;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.StoredRun;
import dev.ratchet.testkit.InMemoryWorkspace;
import dev.ratchet.testkit.LeakScan;
import dev.ratchet.testkit.RuntimeFixture;
import dev.ratchet.testkit.SeededEntropy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * SPEC §3 and D15: no key appears in any output. A run with approvals and a review freeze and
 * resolution is driven on the in-memory fixture; then every public object reachable from it is
 * rendered (keys, ring, trust roots, run state, stored checkpoints and record bodies, inbox items,
 * outcomes, exception messages of failed verifications) and scanned for the checkpoint, approver
 * and reviewer keys in raw, hex (both cases) and base64 (standard and URL-safe) form.
 */
class KeyLeakScanTest {
  private static final long SEED = 2026;
  private static final byte[] PROBE = "probe".getBytes(StandardCharsets.US_ASCII);

  private final RuntimeFixture f = RuntimeFixture.inMemory(SEED);
  private final List<Object[]> rendered = new ArrayList<>();

  private void seen(String where, Object o) {
    rendered.add(new Object[] {where, o});
  }

  private RatchetException failure(String where, ThrowingCallable call) {
    Throwable t = catchThrowable(call);
    assertThat(t).as(where).isInstanceOf(RatchetException.class);
    seen("exception: " + where, t);
    return (RatchetException) t;
  }

  /**
   * The fixture's key material: it draws its three keys, in this order, from {@code
   * SeededEntropy(seed)}. Checked against the live keys by HMAC, so the scan looks for the right
   * bytes.
   */
  private Map<String, byte[]> fixtureKeys() {
    SeededEntropy e = new SeededEntropy(SEED);
    Map<String, byte[]> keys = new LinkedHashMap<>();
    keys.put("checkpoint", e.bytes(32));
    keys.put("approver", e.bytes(32));
    keys.put("reviewer", e.bytes(32));
    assertThat(Hmac.hmacHex(f.checkpointKey, PROBE))
        .isEqualTo(SigningTest.jdkHmac(keys.get("checkpoint"), PROBE));
    // Approver and reviewer keys are Ed25519: the 32 bytes are their secret seeds.
    assertThat(f.approverKey.keyId())
        .isEqualTo(Ed25519.keyId(Ed25519.fromSeed(keys.get("approver")).getPublic()));
    assertThat(f.reviewerKey.keyId())
        .isEqualTo(Ed25519.keyId(Ed25519.fromSeed(keys.get("reviewer")).getPublic()));
    return keys;
  }

  private void renderStore(String when, TaskSpec task, String runId, InMemoryWorkspace ws) {
    StoredRun stored = f.store.load(task.taskId(), runId).orElseThrow();
    seen(when + ": stored run", stored);
    seen(when + ": stored checkpoint text", stored.envelope().text());
    for (RecordSet set : RecordSet.values()) {
      f.store
          .records(task.taskId(), runId, set, 1, 100_000)
          .forEach(r -> seen(when + ": record " + set.wireName() + "/" + r.key(), r.body()));
      seen(
          when + ": records " + set.wireName(),
          f.store.records(task.taskId(), runId, set, 1, 1000));
    }
    seen(when + ": inbox", f.store.inbox(task.taskId(), runId));
    seen(when + ": runs", f.store.runs());
    seen(when + ": lease", f.leases.current(runId));
    seen(when + ": workspace files", ws.files());
    seen(when + ": workspace ledger", ws.ledger());
    seen(when + ": observation", ws.observe());
  }

  @Test
  void noKeyAppearsInAnyRenderedObjectOfARunWithApprovalsAndAReview() {
    Map<String, byte[]> keys = fixtureKeys();
    TaskSpec task = f.task("write_file");
    InMemoryWorkspace ws = f.workspace();
    Ratchet ratchet = f.ratchet("w1");
    seen("ratchet", ratchet);
    seen("task", task);
    seen("task json", task.toJson());

    Run run = ratchet.start(task, "run-1", ws);
    seen(
        "read",
        run.apply(
            run.action("a1", "read_file", JsonObject.builder().put("path", "app.py").build())));
    // An approval-gated write: waits without approval (a value, D32), then approved and executed.
    Proposal p2 = run.propose(run.action("a2", "write_file", args("app.py", RuntimeFixture.FIXED)));
    seen("proposal a2", p2);
    seen("unapproved execution", RuntimeFixture.awaitingWhy(run.execute("a2")));
    seen("approval a2", f.approvePending(run, task, Duration.ofHours(1)));
    seen("inbox with approval", f.store.inbox(task.taskId(), "run-1"));
    seen("executed a2", run.execute("a2"));
    renderStore("after approved write", task, "run-1", ws);

    // A receipt conflict freezes the run.
    Proposal p3 = run.propose(run.action("a3", "write_file", args("log.txt", "ours\n")));
    seen("proposal a3", p3);
    String key = p3.action().idempotencyKey();
    seen("approval a3", f.approvePending(run, task, Duration.ofHours(1)));
    WriteIntent other =
        new WriteIntent(
            ws.namespace(), "write_file", args("log.txt", "theirs\n"), "reversible_write");
    seen(
        "intruder",
        ws.execute(other, key, new Fence("run-1", "intruder", 1), ApprovalBinding.NONE));
    StepOutcome frozen = run.execute("a3");
    assertThat(frozen.kind()).isEqualTo(StepOutcome.Kind.FROZEN);
    seen("frozen outcome", frozen);
    seen("frozen state", run.state());
    seen("frozen state json", run.state().toJson());
    failure(
        "proposal while frozen",
        () ->
            run.propose(
                run.action("a4", "read_file", JsonObject.builder().put("path", "app.py").build())));

    // Refused decisions: signed with the approver key; signed by an unknown reviewer.
    long rev = ws.observe().revision();
    ReviewDecision good = f.decision(run, task, ReviewDecision.REPLAN, rev);
    seen("decision by wrong key", f.deliverDecision(run.state(), good, f.approverKey));
    seen("inbox with refused decision", f.store.inbox(task.taskId(), "run-1"));
    failure("decision signed with the approver key", run::resolveReview);
    ReviewDecision stranger = f.decision(run, task, ReviewDecision.REPLAN, rev);
    SigningKey strangerKey = SigningKey.of("rita", Ed25519.generate(new SeededEntropy(99)));
    seen("decision by stranger", f.deliverDecision(run.state(), stranger, strangerKey));
    failure("decision signed with an untrusted key", run::resolveReview);
    renderStore("while frozen", task, "run-1", ws);

    // A trusted replan resolves it.
    ReviewDecision replan = f.decision(run, task, ReviewDecision.REPLAN, rev);
    seen("trusted decision", f.deliverDecision(run.state(), replan, f.reviewerKey));
    seen("resolved", run.resolveReview());
    assertThat(run.state().phase()).isEqualTo(Phase.RUNNING);
    run.close();

    // Recovery in a fresh runtime, then completion.
    f.clock.advance(RuntimeFixture.LEASE_TTL.multipliedBy(2));
    Run again = f.ratchet("w2").resume(task, "run-1", ws);
    seen("recovery", again.recovery());
    seen("recovered state", again.state());
    seen("lease", again.lease());
    Proposal p5 = again.propose(again.action("a5", "write_file", args("log.txt", "ours\n")));
    seen("proposal a5", p5);
    f.approvePending(again, task, Duration.ofHours(1));
    seen("executed a5", again.execute("a5"));
    seen(
        "tests",
        again.apply(
            again.action("a6", "run_tests", JsonObject.builder().put("target", "unit").build())));
    seen("finished", again.apply(again.action("a7", "finish", JsonObject.EMPTY)));
    assertThat(again.state().phase()).isEqualTo(Phase.COMPLETED);
    renderStore("completed", task, "run-1", ws);
    seen("receipt a5", ws.lookup(p5.action().idempotencyKey()));
    again.close();

    // Failed checkpoint verifications: wrong key under the same id, unknown id, revoked id,
    // tampered payload, tampered HMAC.
    String checkpoint = f.store.load(task.taskId(), "run-1").orElseThrow().envelope().text();
    seen("decoded", Checkpoint.open(new CheckpointEnvelope(checkpoint), f.keyRing));
    SecretKey sameIdOtherKey = SecretKey.checkpoint("ckpt-1", new SeededEntropy(98).bytes(32));
    failure(
        "wrong key",
        () -> Checkpoint.open(new CheckpointEnvelope(checkpoint), KeyRing.of(sameIdOtherKey)));
    SecretKey next = SecretKey.checkpoint("ckpt-2", new SeededEntropy(97).bytes(32));
    failure(
        "unknown key id",
        () -> Checkpoint.open(new CheckpointEnvelope(checkpoint), KeyRing.of(next)));
    KeyRing revoked = f.keyRing.rotate(next).revoke("ckpt-1");
    seen("revoked ring", revoked);
    failure("revoked key id", () -> Checkpoint.open(new CheckpointEnvelope(checkpoint), revoked));
    failure(
        "tampered payload",
        () ->
            Checkpoint.open(
                new CheckpointEnvelope(
                    checkpoint.replace("\"phase\":\"completed\"", "\"phase\":\"running\"")),
                f.keyRing));
    String hmac = checkpoint.substring(checkpoint.indexOf("\"hmac\":\"") + 8).substring(0, 64);
    failure(
        "tampered hmac",
        () ->
            Checkpoint.open(
                new CheckpointEnvelope(
                    checkpoint.replace(hmac, new StringBuilder(hmac).reverse().toString())),
                f.keyRing));
    Ratchet wrongRing =
        Ratchet.builder()
            .store(f.store)
            .leases(f.leases)
            .checkpointKeys(KeyRing.of(sameIdOtherKey))
            .approvers(f.approvers)
            .reviewers(f.reviewers)
            .clock(f.clock)
            .entropy(f.entropy)
            .workerId("w3")
            .build();
    RatchetException e =
        failure("resume with the wrong key", () -> wrongRing.resume(task, "run-1", ws));
    assertThat(e.code()).isEqualTo(ErrorCode.CHECKPOINT);
    failure("verify with the wrong key", () -> wrongRing.verify(task, "run-1", ws));

    // The key objects themselves and their holders.
    seen("checkpoint key", f.checkpointKey);
    seen("approver key", f.approverKey);
    seen("reviewer key", f.reviewerKey);
    seen("key ring", f.keyRing);
    seen("approvers", f.approvers);
    seen("reviewers", f.reviewers);
    seen("entropy", f.entropy);

    LeakScan scan = LeakScan.of(keys);
    for (Object[] r : rendered) {
      scan.check((String) r[0], r[1]);
    }
    assertThat(scan.scanned()).isGreaterThan(60);
    assertThat(scan.findings()).as("key material found in rendered objects").isEmpty();
  }

  private static JsonObject args(String path, String content) {
    return JsonObject.builder().put("path", path).put("content", content).build();
  }

  // ---------------------------------------------------------------- the scanner itself

  /** The scan is only worth something if it finds a key in each form it claims to look for. */
  @Test
  void theScannerFindsAKeyInEveryEncodingAndAsAFragment() {
    byte[] key = new SeededEntropy(7).bytes(32);
    LeakScan scan = LeakScan.of(Map.of("k", key));
    String hex = HexFormat.of().formatHex(key);
    Map<String, Object> leaks = new LinkedHashMap<>();
    leaks.put("raw", "x" + new String(key, StandardCharsets.ISO_8859_1) + "y");
    leaks.put("hex", "key=" + hex);
    leaks.put("HEX", "key=" + hex.toUpperCase(Locale.ROOT));
    leaks.put("base64", Base64.getEncoder().encodeToString(key));
    leaks.put("base64url", Base64.getUrlEncoder().withoutPadding().encodeToString(key));
    leaks.put("hex fragment", hex.substring(10, 10 + 2 * LeakScan.FRAGMENT_BYTES));
    for (int offset = 0; offset < 3; offset++) {
      byte[] prefixed = new byte[key.length + offset + 1];
      System.arraycopy(key, 0, prefixed, offset + 1, key.length);
      // The key inside a larger buffer, at every alignment, in both base64 alphabets.
      leaks.put("base64 at +" + offset, Base64.getEncoder().encodeToString(prefixed));
      leaks.put("base64url at +" + offset, Base64.getUrlEncoder().encodeToString(prefixed));
      byte[] middle = java.util.Arrays.copyOfRange(key, offset + 3, offset + 3 + 15);
      leaks.put("base64 fragment at +" + offset, Base64.getEncoder().encodeToString(middle));
    }
    leaks.put("byte[] in a record", new Holder("x", key));
    leaks.put("message of a cause", new IllegalStateException("outer", new RuntimeException(hex)));
    leaks.put("inside a list", List.of("a", Map.of("k", hex)));
    for (Map.Entry<String, Object> leak : leaks.entrySet()) {
      scan.check(leak.getKey(), leak.getValue());
    }
    assertThat(scan.findings()).hasSize(leaks.size());
    LeakScan clean = LeakScan.of(Map.of("k", key));
    clean.check("another key", HexFormat.of().formatHex(new SeededEntropy(8).bytes(32)));
    clean.check("a short run", hex.substring(0, 2 * LeakScan.FRAGMENT_BYTES - 2));
    assertThat(clean.findings()).isEmpty();
  }

  private record Holder(String name, byte[] material) {}
}
