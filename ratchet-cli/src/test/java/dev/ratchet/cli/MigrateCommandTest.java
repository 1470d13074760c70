package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Ratchet;
import dev.ratchet.ops.KeyConfig;
import dev.ratchet.ops.TaskFile;
import dev.ratchet.sign.TrustRoot;
import dev.ratchet.testkit.SeededEntropy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * D37: {@code ratchet migrate} prints the difference before it signs, refuses (exit 2, nothing
 * delivered) a running run and a widening, and delivers a narrowing; the next {@code resume}
 * applies it under the lease ({@code task_migrated} with both digests) and the run keeps waiting
 * for its approval under the new version.
 */
class MigrateCommandTest {
  @TempDir Path dir;
  private MemoryHarness h;
  private Path v1;

  @BeforeEach
  void setUp() {
    h = new MemoryHarness(dir, 42);
    assertThat(h.run("keys", "generate").exit()).isZero();
    h.person("approver", "alice");
    h.person("operator", "olga");
    v1 = h.taskFile("t.json", "\"append_file\"", MemoryHarness.PLAN);
  }

  @Test
  void aWaitingRunIsMigratedAfterTheDifferenceIsShownAndAWideningIsRefused() throws IOException {
    assertThat(h.run("run", v1.toString(), "--run-id", "r1").exit()).isEqualTo(4);
    Path v2 = edit(v1, "v2.json", "\"max_steps\": 50", "\"max_steps\": 40");

    MemoryHarness.Result m = h.run("migrate", "r1", "--task", v2.toString(), "--operator", "olga");
    assertThat(m.exit()).as(m.err()).isZero();
    assertThat(m.out())
        .contains("migrate run r1 (running)")
        .contains("budgets.max_steps: 50 -> 40")
        .contains("migration of run r1 by olga (key ");
    assertThat(m.out().indexOf("budgets.max_steps"))
        .as("the difference is printed before the delivery")
        .isLessThan(m.out().indexOf("delivered"));
    assertThat(h.store.inbox("repair-greeting", "r1")).hasSize(1);

    MemoryHarness.Result r = h.run("resume", "r1");
    assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(4);
    assertThat(h.store.inbox("repair-greeting", "r1")).as("applied").isEmpty();
    MemoryHarness.Result t = h.run("trace", "r1", "--json");
    assertThat(t.exit()).as(t.err()).isZero();
    String trace = t.out();
    assertThat(trace).contains("task_migrated").contains("\"to_task_version\":\"v2\"");
    assertThat(h.run("status", "r1").exit()).as("status reads the migrated run").isIn(0, 4);

    Path v3 =
        edit(
            v2, "v3.json", "\"approval_required\": [\"append_file\"]", "\"approval_required\": []");
    // The home recorded v1; the run runs under v2: the difference is shown against v2.
    MemoryHarness.Result wide =
        h.run("migrate", "r1", "--task", v3.toString(), "--operator", "olga");
    assertThat(wide.exit()).as(wide.out() + wide.err()).isEqualTo(2);
    assertThat(wide.out())
        .contains("- approval_required: append_file")
        .doesNotContain("budgets.max_steps");
    assertThat(wide.err())
        .contains("widens permissions")
        .contains("approval_required: 'append_file' is dropped");
    assertThat(h.store.inbox("repair-greeting", "r1")).as("nothing delivered").isEmpty();
  }

  @Test
  void aRunningRunIsRefusedWithTheWayToMigrateIt() throws IOException {
    TaskFile tf = TaskFile.load(v1, h.services.adapters());
    worker().start(tf.task(), "r2", h.workspace).close();
    Path v2 = edit(v1, "v2.json", "\"max_steps\": 50", "\"max_steps\": 40");
    MemoryHarness.Result m =
        h.run(
            "migrate",
            "r2",
            "--task",
            v2.toString(),
            "--from-task",
            v1.toString(),
            "--operator",
            "olga");
    assertThat(m.exit()).isEqualTo(2);
    assertThat(m.err()).contains("is running").contains("ratchet pause r2");
    assertThat(h.store.inbox("repair-greeting", "r2")).isEmpty();
  }

  private Path edit(Path from, String name, String what, String with) throws IOException {
    String text = Files.readString(from);
    assertThat(text).contains(what);
    String version = name.substring(0, name.indexOf('.'));
    Path out = from.resolveSibling(name);
    Files.writeString(
        out,
        text.replace(what, with)
            .replaceFirst("\"task_version\": \"v[0-9]\"", "\"task_version\": \"" + version + "\""));
    return out;
  }

  private Ratchet worker() {
    return Ratchet.builder()
        .store(h.store)
        .leases(h.store)
        .checkpointKeys(KeyConfig.directoryRing(h.home.resolve("keys")))
        .approvers(TrustRoot.approvers(List.of()))
        .reviewers(TrustRoot.reviewers(List.of()))
        .clock(h.clock)
        .entropy(new SeededEntropy(99))
        .workerId("w-test")
        .build();
  }
}
