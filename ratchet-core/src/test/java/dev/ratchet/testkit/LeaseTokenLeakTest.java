package dev.ratchet.testkit;

import static dev.ratchet.testkit.Scenarios.tests;
import static dev.ratchet.testkit.Scenarios.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Run;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.seam.Entropy;
import dev.ratchet.seam.Seams;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.StoredRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * SPEC D21: the lease token stays with the worker. A full run (start, write, verify, finish, then a
 * resume) under a store whose token bytes are recorded leaves no token — raw hex or base64 — in any
 * checkpoint or record the store holds.
 */
class LeaseTokenLeakTest {
  /** Entropy that remembers every byte array it handed out. */
  private static final class Recording implements Entropy {
    final Entropy real = Seams.secureEntropy();
    final List<byte[]> issued = new ArrayList<>();

    @Override
    public synchronized byte[] bytes(int n) {
      byte[] b = real.bytes(n);
      issued.add(b.clone());
      return b;
    }
  }

  @Test
  void noLeaseTokenReachesACheckpointOrARecord() {
    ManualClock clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
    Recording tokens = new Recording();
    InMemoryStore store = new InMemoryStore(clock, tokens);
    RuntimeFixture f = new RuntimeFixture(53, clock, store, store);
    TaskSpec task = f.task();
    InMemoryWorkspace ws = f.workspace();
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      run.apply(run.action("a1", "write_file", write("app.py", RuntimeFixture.FIXED)));
    }
    try (Run run = f.ratchet("w2").resume(task, "run-1", ws)) {
      run.apply(run.action("t1", "run_tests", tests()));
      run.apply(run.action("f1", "finish", JsonObject.EMPTY));
    }
    assertThat(tokens.issued).hasSizeGreaterThanOrEqualTo(2);

    StringBuilder stored =
        new StringBuilder(store.load(task.taskId(), "run-1").orElseThrow().envelope().text());
    for (RecordSet set : RecordSet.values()) {
      for (StoredRecord r : store.records(task.taskId(), "run-1", set, 1, 10_000)) {
        stored.append(r.body()).append(r.key()).append(r.chain());
      }
    }
    String text = stored.toString();
    for (byte[] token : tokens.issued) {
      assertThat(text)
          .doesNotContain(HexFormat.of().formatHex(token))
          .doesNotContain(Base64.getEncoder().encodeToString(token))
          .doesNotContain(Base64.getUrlEncoder().withoutPadding().encodeToString(token));
    }
  }

  /**
   * Issue 36, item 5: redaction covers the lease token as it covers the loaded keys. A token that
   * reaches evidence (here: written into a file the run then reads) comes back as {@code
   * [redacted:lease-token]}, and a {@code redacted} trace event names it (never the bytes).
   */
  @Test
  void aLeaseTokenThatReachesEvidenceIsRedacted() {
    ManualClock clock = new ManualClock(Instant.parse("2026-07-18T09:00:00Z"));
    Recording tokens = new Recording();
    InMemoryStore store = new InMemoryStore(clock, tokens);
    RuntimeFixture f = new RuntimeFixture(54, clock, store, store);
    TaskSpec task = f.task();
    InMemoryWorkspace ws = f.workspace();
    try (Run run = f.ratchet("w1").start(task, "run-1", ws)) {
      assertThat(tokens.issued).hasSize(1);
      String hex = HexFormat.of().formatHex(tokens.issued.get(0));
      run.apply(run.action("a1", "write_file", write("app.py", "token " + hex + "\n")));
      JsonObject read =
          run.apply(run.action("r1", "read_file", dev.ratchet.testkit.Scenarios.read("app.py")))
              .result();
      assertThat(read.toString()).doesNotContain(hex).contains("[redacted:lease-token]");
      assertThat(run.trace())
          .anySatisfy(
              e -> {
                assertThat(e.outcome().wireName()).isEqualTo("redacted");
                assertThat(e.detail().toString()).contains("lease-token").doesNotContain(hex);
              });
    }
  }
}
