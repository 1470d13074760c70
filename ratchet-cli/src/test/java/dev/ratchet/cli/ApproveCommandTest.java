package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.adapter.ForwardingAdapter;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.PendingIntent;
import dev.ratchet.ops.KeyConfig;
import dev.ratchet.ops.TaskFile;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.testkit.SeededEntropy;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code approve} shows what it approves, signs only the digest of exactly what it showed (D26),
 * and refuses a key the run's trust root would refuse unless {@code --force} (issue 14).
 */
class ApproveCommandTest {
  @TempDir Path dir;
  private MemoryHarness h;
  private Path task;

  @BeforeEach
  void setUp() {
    h = new MemoryHarness(dir, 31);
    assertThat(h.run("keys", "generate").exit()).isZero();
    h.person("approver", "alice");
    task = h.taskFile("t.json", "\"append_file\"", MemoryHarness.PLAN);
  }

  @Test
  void approveShowsKindTargetArgumentsAndDigestThenSigns() {
    assertThat(h.run("run", task.toString(), "--run-id", "r1").exit()).isEqualTo(4);
    MemoryHarness.Result a = h.run("approve", "r1", "--approver", "alice");
    assertThat(a.exit()).as(a.err()).isZero();
    JsonObject pending = pending("r1");
    assertThat(a.out())
        .contains("approving append_file " + text(pending, "action_id"))
        .contains("target:    log.txt")
        .contains("arguments: {\"content\":\"fixed\\n\",\"path\":\"log.txt\"}")
        .contains("intent:    " + text(pending, "intent_digest"))
        .contains("by alice (key ")
        .contains("'ratchet resume r1' executes the write"); // run by hand: no worker drives it
    assertThat(inbox("r1")).hasSize(1);
  }

  @Test
  void anUntrustedKeyIsRefusedWithExitTwoUnlessForced() {
    assertThat(h.run("run", task.toString(), "--run-id", "r1").exit()).isEqualTo(4);
    assertThat(h.run("keys", "generate", "--role", "approver", "--name", "bob").exit()).isZero();
    String bob = h.home.resolve("identities/approver/bob.key").toString();
    MemoryHarness.Result refused = h.run("approve", "r1", "--key", bob);
    assertThat(refused.exit()).isEqualTo(2);
    assertThat(refused.err())
        .contains("approver key ")
        .contains("('bob') is not trusted by this run's trust root")
        .contains("untrusted_signer")
        .contains("--force");
    assertThat(inbox("r1")).as("nothing delivered").isEmpty();
    MemoryHarness.Result forced = h.run("approve", "r1", "--key", bob, "--force");
    assertThat(forced.exit()).as(forced.err()).isZero();
    assertThat(forced.err()).contains("signing anyway (--force)");
    assertThat(inbox("r1")).hasSize(1);
  }

  @Test
  void aPendingDigestThatIsNotTheDigestOfTheShownArgumentsIsNeverSigned() {
    // A faulty worker whose adapter changes its namespace after the run started records a digest
    // the CLI cannot reproduce from the arguments it shows (the digest binds namespace, kind,
    // arguments and risk).
    TaskFile tf = TaskFile.load(task, h.services.adapters());
    boolean[] skew = {false};
    ForwardingAdapter skewed =
        new ForwardingAdapter(h.workspace) {
          @Override
          public String namespace() {
            return skew[0] ? "memory-workspace-elsewhere" : delegate.namespace();
          }
        };
    try (Run run = worker().start(tf.task(), "r9", skewed)) {
      skew[0] = true;
      Proposal p =
          run.propose(
              run.action(
                  "log",
                  "append_file",
                  JsonObject.builder().put("path", "log.txt").put("content", "fixed\n").build()));
      assertThat(p.kind()).isEqualTo(Proposal.Kind.PENDING);
    }
    // Verification already refuses such a checkpoint (CHECKPOINT, exit 3): nothing is signed.
    MemoryHarness.Result a =
        h.run("approve", "r9", "--task", task.toString(), "--approver", "alice");
    assertThat(a.exit()).as(a.out() + a.err()).isEqualTo(3);
    assertThat(a.err()).contains("pending intent digest does not match its action");
    assertThat(h.store.inbox("repair-greeting", "r9")).as("nothing delivered").isEmpty();
    // And approve's own check, before it signs: the digest of exactly the shown arguments.
    PendingIntent shown = pendingOf("r1");
    PendingIntent forged =
        new PendingIntent(shown.action(), "ee".repeat(32), shown.preState(), null);
    Throwable t = catchThrowable(() -> ApprovalPreview.requireDigest(h.workspace, forged));
    assertThat(t).isInstanceOf(RatchetException.class);
    assertThat(((RatchetException) t).code()).isEqualTo(ErrorCode.CONTRACT);
    assertThat(t.getMessage())
        .contains("intent digest " + "ee".repeat(32))
        .contains("is not the digest")
        .contains("of the arguments shown: refusing to sign");
    ApprovalPreview.requireDigest(h.workspace, shown);
  }

  /** r1's verified pending intent, as approve reads it. */
  private PendingIntent pendingOf(String runId) {
    assertThat(h.run("run", task.toString(), "--run-id", runId).exit()).isEqualTo(4);
    TaskFile tf = TaskFile.load(task, h.services.adapters());
    return worker().verify(tf.task(), runId, h.workspace).pending();
  }

  private Ratchet worker() {
    return Ratchet.builder()
        .store(h.store)
        .leases(h.store)
        .checkpointKeys(KeyConfig.directoryRing(h.home.resolve("keys")))
        .approvers(KeyConfig.approvers(h.home.resolve("approvers")))
        .reviewers(KeyConfig.reviewers(h.home.resolve("reviewers")))
        .clock(h.clock)
        .entropy(new SeededEntropy(32))
        .workerId("skewed")
        .build();
  }

  private JsonObject pending(String runId) {
    JsonObject v = (JsonObject) Json.parse(h.run("inspect", runId, "--json").out().strip());
    return (JsonObject) v.get("pending").orElseThrow();
  }

  private java.util.List<dev.ratchet.json.JsonValue> inbox(String runId) {
    JsonObject v = (JsonObject) Json.parse(h.run("inspect", runId, "--json").out().strip());
    return ((JsonArray) v.get("inbox").orElseThrow()).items();
  }

  private static String text(JsonObject o, String key) {
    return dev.ratchet.ops.Views.text(o, key);
  }
}
