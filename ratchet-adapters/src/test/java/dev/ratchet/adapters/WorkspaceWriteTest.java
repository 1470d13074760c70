package dev.ratchet.adapters;

import static dev.ratchet.adapters.Workspaces.fence;
import static dev.ratchet.adapters.Workspaces.none;
import static dev.ratchet.adapters.Workspaces.sha;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.Observation;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.testkit.ManualClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Atomic, conditional writes and the receipts that bind them (D9). */
class WorkspaceWriteTest {
  @TempDir Path root;
  final ManualClock clock = Workspaces.clock();
  WorkspaceAdapter ws;

  @BeforeEach
  void open() {
    Workspaces.put(root, "app.py", "print('hello'\n");
    ws = Workspaces.builder(root, clock).maxFileBytes(1024).open();
  }

  @AfterEach
  void close() {
    ws.close();
  }

  @Test
  void aWriteReplacesTheFileAtomicallyAndLeavesNoTempFile() throws IOException {
    Files.setPosixFilePermissions(
        root.resolve("app.py"), PosixFilePermissions.fromString("rwxr-x---"));
    AdapterOutcome out =
        ws.execute(
            Workspaces.write("app.py", "print('ready')\n", "print('hello'\n"),
            "k1",
            fence(1),
            none());
    assertThat(out.kind()).isEqualTo(AdapterOutcome.Kind.EXECUTED);
    assertThat(Workspaces.read(root.resolve("app.py"))).isEqualTo("print('ready')\n");
    assertThat(Files.getPosixFilePermissions(root.resolve("app.py")))
        .isEqualTo(PosixFilePermissions.fromString("rwxr-x---"));
    try (Stream<Path> s = Files.list(root)) {
      assertThat(s.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("app.py", ".ratchet-adapter");
    }
  }

  @Test
  void aReceiptCarriesEveryBinding() {
    Observation before = ws.observe();
    ApprovalBinding approval = new ApprovalBinding("c".repeat(64), clock.millis() + 60_000);
    Receipt r =
        ws.execute(Workspaces.write("src/new.txt", "hi", null), "k1", fence(3), approval).receipt();
    Observation after = ws.observe();
    assertThat(r.namespace()).isEqualTo("workspace");
    assertThat(r.adapterVersion()).isEqualTo(1);
    assertThat(r.receiptId()).matches("[0-9a-f]{64}");
    assertThat(r.revisionBefore()).isEqualTo(before.revision()).isZero();
    assertThat(r.revisionAfter()).isEqualTo(after.revision()).isEqualTo(1);
    assertThat(r.fingerprintBefore()).isEqualTo(before.stateFingerprint());
    assertThat(r.fingerprintAfter()).isEqualTo(after.stateFingerprint());
    assertThat(r.committedAtMs()).isEqualTo(clock.millis());
    assertThat(r.fenceRunId()).isEqualTo("run-1");
    assertThat(r.fenceLeaseVersion()).isEqualTo(3);
    assertThat(r.approvalFingerprint()).isEqualTo("c".repeat(64));
    assertThat(r.businessId()).isEqualTo("src/new.txt");
    assertThat(r.result())
        .isEqualTo(
            JsonObject.builder()
                .put("path", "src/new.txt")
                .put("operation", "write_file")
                .put("content_sha256", sha("hi"))
                .put("revision", 1)
                .build());
  }

  @Test
  void aWriteWhoseExpectedDigestIsStaleChangesNothing() {
    Observation before = ws.observe();
    WriteIntent stale = Workspaces.write("app.py", "x", "something else");
    assertThatThrownBy(() -> ws.execute(stale, "k1", fence(1), none()))
        .isInstanceOfSatisfying(
            RatchetException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.STALE_OBSERVATION));
    WriteIntent mustBeAbsent = Workspaces.write("app.py", "x", null);
    assertThatThrownBy(() -> ws.execute(mustBeAbsent, "k2", fence(1), none()))
        .isInstanceOfSatisfying(
            RatchetException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.STALE_OBSERVATION));
    assertThat(ws.observe()).isEqualTo(before);
    assertThat(ws.lookup("k1")).isEmpty();
  }

  @Test
  void oversizedPayloadsAreContractErrorsAndChangeNothing() {
    Observation before = ws.observe();
    String big = "x".repeat(1025);
    assertThatThrownBy(
            () -> ws.execute(Workspaces.write("big.txt", big, null), "k1", fence(1), none()))
        .isInstanceOfSatisfying(
            RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONTRACT));
    // Each append fits, but the file would outgrow the limit.
    ws.execute(Workspaces.append("log.txt", "y".repeat(1000), null), "k2", fence(1), none());
    assertThatThrownBy(
            () ->
                ws.execute(
                    Workspaces.append("log.txt", "z".repeat(100), "y".repeat(1000)),
                    "k3",
                    fence(1),
                    none()))
        .isInstanceOfSatisfying(
            RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONTRACT));
    assertThat(ws.observe().revision()).isEqualTo(before.revision() + 1);
    assertThat(root.resolve("big.txt")).doesNotExist();
    assertThat(ws.lookup("k3")).isEmpty();
  }

  @Test
  void appendAndDeleteAreConditionalToo() {
    ws.execute(Workspaces.append("app.py", "# more\n", "print('hello'\n"), "k1", fence(1), none());
    assertThat(Workspaces.read(root.resolve("app.py"))).isEqualTo("print('hello'\n# more\n");
    Receipt del =
        ws.execute(Workspaces.delete("app.py", "print('hello'\n# more\n"), "k2", fence(1), none())
            .receipt();
    assertThat(root.resolve("app.py")).doesNotExist();
    assertThat(del.result().get("content_sha256").orElseThrow().toString()).isEqualTo("null");
    assertThat(ws.observe().revision()).isEqualTo(2);
  }

  @Test
  void anApprovalThatExpiresAtTheCommitInstantIsRefused() {
    ApprovalBinding expiring = new ApprovalBinding("d".repeat(64), clock.millis() + 1000);
    clock.advance(Duration.ofSeconds(1));
    assertThatThrownBy(
            () -> ws.execute(Workspaces.write("a.txt", "a", null), "k1", fence(1), expiring))
        .isInstanceOfSatisfying(
            RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.APPROVAL));
    assertThat(root.resolve("a.txt")).doesNotExist();
  }

  @Test
  void aWriteThatLandsAfterTheExpiryCarriesTheLaterTimeSoTheRuntimeReviewsIt() {
    ws.close();
    // A clock that moves one second per reading: the expiry passes while the write is under way.
    java.util.concurrent.atomic.AtomicLong ticks = new java.util.concurrent.atomic.AtomicLong();
    java.time.InstantSource ticking = () -> Workspaces.START.plusSeconds(ticks.getAndIncrement());
    ws = WorkspaceAdapter.builder(root).clock(ticking).open();
    long expiry = Workspaces.START.toEpochMilli() + 1500;
    Receipt r =
        ws.execute(
                Workspaces.write("a.txt", "a", null),
                "k1",
                fence(1),
                new ApprovalBinding("f".repeat(64), expiry))
            .receipt();
    assertThat(r.committedAtMs()).isGreaterThanOrEqualTo(expiry);
  }

  @Test
  void theNewestFenceIsDurableAcrossReopen() {
    ws.execute(Workspaces.write("a.txt", "a", null), "k1", fence(5), none());
    ws.close();
    ws = Workspaces.builder(root, clock).open();
    assertThatThrownBy(
            () -> ws.execute(Workspaces.write("b.txt", "b", null), "k2", fence(4), none()))
        .isInstanceOfSatisfying(
            RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.FENCED));
    assertThatThrownBy(
            () -> ws.read("read_file", JsonObject.builder().put("path", "a.txt").build(), fence(4)))
        .isInstanceOfSatisfying(
            RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.FENCED));
    assertThat(ws.read("read_file", JsonObject.builder().put("path", "a.txt").build(), fence(5)))
        .isEqualTo(
            JsonObject.builder()
                .put("path", "a.txt")
                .put("content", "a")
                .put("content_sha256", sha("a"))
                .put("revision", 1)
                .build());
  }

  @Test
  void theInstanceIdSurvivesReopenAndAForeignEditIsDrift() {
    Observation first = ws.observe();
    ws.close();
    ws = Workspaces.builder(root, clock).open();
    assertThat(ws.observe()).isEqualTo(first);
    Workspaces.put(root, "app.py", "edited by someone else\n");
    Observation drifted = ws.observe();
    assertThat(drifted.instanceId()).isEqualTo(first.instanceId());
    assertThat(drifted.revision()).isEqualTo(first.revision());
    assertThat(drifted.stateFingerprint()).isNotEqualTo(first.stateFingerprint());
  }

  @Test
  void intentsOfAnotherNamespaceOrKindAreRefused() {
    WriteIntent foreign =
        new WriteIntent(
            "memory-workspace",
            "write_file",
            Workspaces.write("a", "b", null).arguments(),
            "reversible_write");
    WriteIntent readKind =
        new WriteIntent(
            "workspace", "read_file", JsonObject.builder().put("path", "a").build(), "read_only");
    for (WriteIntent bad : new WriteIntent[] {foreign, readKind}) {
      assertThatThrownBy(() -> ws.execute(bad, "k1", fence(1), none()))
          .isInstanceOfSatisfying(
              RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONTRACT));
    }
    assertThatThrownBy(
            () -> ws.execute(Workspaces.write("a", "b", null), "k".repeat(201), fence(1), none()))
        .isInstanceOfSatisfying(
            RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONTRACT));
  }

  @Test
  void expectedFilesVerificationIsBoundToTheRevisionItSaw() {
    JsonObject verifier =
        JsonObject.builder()
            .put("expected_files", JsonObject.builder().put("app.py", "print('ready')\n").build())
            .build();
    JsonObject args = JsonObject.builder().put("target", "unit").build();
    assertThat(ws.verify("run_tests", args, verifier, fence(1)).passed()).isFalse();
    ws.execute(
        Workspaces.write("app.py", "print('ready')\n", "print('hello'\n"), "k1", fence(1), none());
    var v = ws.verify("run_tests", args, verifier, fence(1));
    assertThat(v.passed()).isTrue();
    assertThat(v.revision()).isEqualTo(1);
    assertThat(v.stateFingerprint()).isEqualTo(ws.observe().stateFingerprint());
  }
}
