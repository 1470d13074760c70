package dev.ratchet.agentdemo;

import dev.ratchet.Ratchet;
import dev.ratchet.adapters.LedgerApi;
import dev.ratchet.adapters.WorkspaceAdapter;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.jdbc.OpenMode;
import dev.ratchet.jdbc.StoreOptions;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Budgets;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.seam.Seams;
import dev.ratchet.sign.Ed25519;
import dev.ratchet.sign.KeyRing;
import dev.ratchet.sign.SecretKey;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.sign.TrustRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Set;

/**
 * What the agent demo's parent and its worker JVMs share: the two tasks, the keys (written once by
 * the parent into {@code dir/keys}, read by every worker), the SQLite store and the runtime.
 */
final class AgentDemoSetup {
  static final String REPAIR_RUN = "repair-run";
  static final String PAY_RUN = "pay-run";
  static final String ACCOUNT = "acct-demo";
  static final String APP = "app.py";
  static final String BROKEN = "def greeting():\n    return 'helo'\n";
  static final String FIXED = "def greeting():\n    return 'hello'\n";
  static final long INVOICE_CENTS = 4200;
  static final Duration LEASE_TTL = Duration.ofSeconds(5);
  private static final String CHECKPOINT_KEY = "checkpoint.key";
  private static final String APPROVER_SEED = "alice.key";

  /** The two agents of the demo. */
  enum Part {
    REPAIR,
    PAY;

    String runId() {
      return this == REPAIR ? REPAIR_RUN : PAY_RUN;
    }

    TaskSpec task() {
      return this == REPAIR ? repairTask() : payTask();
    }
  }

  private AgentDemoSetup() {}

  /** Fresh random key material (32 bytes each), readable by the owner only. */
  static void createKeys(Path dir) throws IOException {
    Path keys = Files.createDirectories(dir.resolve("keys"));
    for (String name : List.of(CHECKPOINT_KEY, APPROVER_SEED)) {
      Path f = keys.resolve(name);
      Files.write(f, Seams.secureEntropy().bytes(32));
      try {
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
      } catch (UnsupportedOperationException e) {
        // Not a POSIX file system: the temporary directory is the user's own.
      }
    }
  }

  /** The demo approver's Ed25519 key (alice). */
  static SigningKey approver(Path dir) {
    return SigningKey.of("alice", Ed25519.fromSeed(read(dir, APPROVER_SEED)));
  }

  static JdbcStore store(Path dir, InstantSource clock) {
    return JdbcStore.open(
        Database.sqlite(dir.resolve("store.db")),
        StoreOptions.defaults(clock).withOpenMode(OpenMode.CREATE));
  }

  static Ratchet ratchet(
      Path dir, JdbcStore store, InstantSource clock, CrashSeam seam, String workerId) {
    return ratchet(dir, store, clock, seam, workerId, LEASE_TTL);
  }

  static Ratchet ratchet(
      Path dir,
      JdbcStore store,
      InstantSource clock,
      CrashSeam seam,
      String workerId,
      Duration leaseTtl) {
    return Ratchet.builder()
        .store(store)
        .leases(store)
        .checkpointKeys(KeyRing.of(SecretKey.checkpoint("ckpt-1", read(dir, CHECKPOINT_KEY))))
        .approvers(TrustRoot.approvers(List.of(approver(dir).trusted())))
        .reviewers(TrustRoot.reviewers(List.of()))
        .operators(TrustRoot.operators(List.of()))
        .clock(clock)
        .entropy(Seams.secureEntropy())
        .crashSeam(seam)
        .workerId(workerId)
        .leaseTtl(leaseTtl)
        .build();
  }

  static WorkspaceAdapter workspace(Path dir, InstantSource clock, CrashSeam seam) {
    return WorkspaceAdapter.builder(dir.resolve("workspace")).clock(clock).crashSeam(seam).open();
  }

  /** Repair app.py so that the test (the verifier's expected content) passes. */
  static TaskSpec repairTask() {
    return new TaskSpec(
        "agent-repair",
        "v1",
        "workspace-policy",
        "v1",
        WorkspaceAdapter.NAMESPACE,
        Set.of("workspace.read", "workspace.write", "tests.run"),
        Set.of("read_file", "write_file", "run_tests"),
        Set.of(APP, "unit"),
        Set.of(),
        budgets(),
        JsonObject.EMPTY,
        JsonObject.builder()
            .put("expected_files", JsonObject.builder().put(APP, FIXED).build())
            .build());
  }

  /** Order and pay invoice 1004; every payment needs a signed approval. */
  static TaskSpec payTask() {
    JsonObject expected =
        JsonObject.builder()
            .put("orders", 1)
            .put("ordered_cents", INVOICE_CENTS)
            .put("paid_cents", INVOICE_CENTS)
            .build();
    return new TaskSpec(
        "agent-payment",
        "v1",
        "payments-policy",
        "v1",
        LedgerApi.NAMESPACE,
        Set.of("ledger.write", "ledger.read", "ledger.verify"),
        Set.of(LedgerApi.CREATE_ORDER, LedgerApi.PAY_ORDER, "check_account"),
        Set.of(ACCOUNT),
        Set.of(LedgerApi.PAY_ORDER),
        budgets(),
        JsonObject.EMPTY,
        JsonObject.builder()
            .put("expect", JsonObject.builder().put(ACCOUNT, expected).build())
            .build());
  }

  private static Budgets budgets() {
    return new Budgets(100, 50, 3_600_000L, 1_000_000);
  }

  private static byte[] read(Path dir, String name) {
    try {
      return Files.readAllBytes(dir.resolve("keys").resolve(name));
    } catch (IOException e) {
      throw new RatchetException(ErrorCode.INTERNAL, "demo key " + name + " cannot be read");
    }
  }
}
