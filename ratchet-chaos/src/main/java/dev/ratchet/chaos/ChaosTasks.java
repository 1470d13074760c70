package dev.ratchet.chaos;

import dev.ratchet.Ratchet;
import dev.ratchet.adapters.LedgerApi;
import dev.ratchet.adapters.WorkspaceAdapter;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonNull;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.model.Budgets;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.sign.Ed25519;
import dev.ratchet.sign.KeyRing;
import dev.ratchet.sign.SecretKey;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.sign.TrustRoot;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.LeaseStore;
import dev.ratchet.testkit.SeededEntropy;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The two tasks of the crash campaign and the keys of a trial (derived from its seed, so the
 * supervisor and every worker JVM agree without passing key material around). Each write is an
 * effect that is not naturally idempotent (D18): an order in the reference ledger, a line appended
 * to a file in the workspace.
 */
final class ChaosTasks {
  static final String ACCOUNT = "acct";
  static final String LOG = "log.txt";
  static final int WRITES = 3;
  static final long[][] ORDERS = {{1, 100}, {2, 250}, {1, 999}};

  private ChaosTasks() {}

  enum Kind {
    LEDGER,
    WORKSPACE
  }

  static TaskSpec task(Kind kind) {
    return task(kind, false);
  }

  /**
   * The task of {@code kind}; with {@code approvals} every write needs a signed approval (the
   * worker signs it as alice and delivers it to the run's inbox), so runs pass through the approval
   * window too.
   */
  static TaskSpec task(Kind kind, boolean approvals) {
    TaskSpec t = baseTask(kind);
    if (!approvals) {
      return t;
    }
    return new TaskSpec(
        t.taskId() + "-approved",
        t.taskVersion(),
        t.policyId(),
        t.policyVersion(),
        t.adapter(),
        t.permissions(),
        t.actionKinds(),
        t.targets(),
        Set.of(write(kind, 0).getKey()),
        t.budgets(),
        t.environment(),
        t.verifier());
  }

  private static TaskSpec baseTask(Kind kind) {
    Budgets budgets = new Budgets(500, 100, 86_400_000L, 1_000_000);
    if (kind == Kind.LEDGER) {
      JsonObject expected =
          JsonObject.builder()
              .put("orders", 3)
              .put("ordered_cents", 1599)
              .put("paid_cents", 0)
              .build();
      return new TaskSpec(
          "chaos-ledger",
          "v1",
          "chaos-policy",
          "v1",
          LedgerApi.NAMESPACE,
          Set.of("ledger.write", "ledger.read", "ledger.verify"),
          Set.of("create_order", "get_account", "check_account"),
          Set.of(ACCOUNT),
          Set.of(),
          budgets,
          JsonObject.EMPTY,
          JsonObject.builder()
              .put("expect", JsonObject.builder().put(ACCOUNT, expected).build())
              .build());
    }
    return new TaskSpec(
        "chaos-workspace",
        "v1",
        "chaos-policy",
        "v1",
        WorkspaceAdapter.NAMESPACE,
        Set.of("workspace.read", "workspace.write", "tests.run"),
        Set.of("append_file", "run_tests"),
        Set.of(LOG, "unit"),
        Set.of(),
        budgets,
        JsonObject.EMPTY,
        JsonObject.builder()
            .put("expected_files", JsonObject.builder().put(LOG, content(WRITES)).build())
            .build());
  }

  /** The log after the first {@code n} appends. */
  static String content(int n) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      b.append(line(i));
    }
    return b.toString();
  }

  static String line(int i) {
    return "line-" + i + "\n";
  }

  static String sku(int i) {
    return "sku-" + (i + 1);
  }

  /** The kind and arguments of write {@code i} (0-based). */
  static Map.Entry<String, JsonObject> write(Kind kind, int i) {
    if (kind == Kind.LEDGER) {
      return Map.entry(
          "create_order",
          JsonObject.builder()
              .put("account", ACCOUNT)
              .put("sku", sku(i))
              .put("quantity", ORDERS[i][0])
              .put("unit_price_cents", ORDERS[i][1])
              .build());
    }
    return Map.entry(
        "append_file",
        JsonObject.builder()
            .put("path", LOG)
            .put("content", line(i))
            .put(
                "expected_sha256",
                i == 0 ? JsonNull.INSTANCE : new JsonString(Canonical.sha256Hex(content(i))))
            .build());
  }

  static Map.Entry<String, JsonObject> verification(Kind kind) {
    return kind == Kind.LEDGER
        ? Map.entry("check_account", JsonObject.builder().put("account", ACCOUNT).build())
        : Map.entry("run_tests", JsonObject.builder().put("target", "unit").build());
  }

  /** What the writes of {@code kind} leave in the external ledger, as counted items. */
  static List<String> effects(Kind kind) {
    return kind == Kind.LEDGER
        ? List.of(sku(0), sku(1), sku(2))
        : List.of(line(0).strip(), line(1).strip(), line(2).strip());
  }

  static SecretKey checkpointKey(long seed) {
    return SecretKey.checkpoint("chaos-ckpt", new SeededEntropy(seed).bytes(32));
  }

  /**
   * The approver's Ed25519 key of trial {@code seed}: held by the chaos approver only; {@link
   * #ratchet} trusts its public half.
   */
  static SigningKey approverKey(long seed) {
    return SigningKey.of("alice", Ed25519.generate(new SeededEntropy(seed ^ 0xa11ce)));
  }

  private static SigningKey reviewerKey(long seed) {
    return SigningKey.of("rita", Ed25519.generate(new SeededEntropy(seed ^ 0x417a)));
  }

  static Ratchet ratchet(
      long seed,
      CheckpointStore store,
      LeaseStore leases,
      InstantSource clock,
      String worker,
      Duration ttl,
      dev.ratchet.seam.CrashSeam seam,
      long entropySeed) {
    return Ratchet.builder()
        .store(store)
        .leases(leases)
        .checkpointKeys(KeyRing.of(checkpointKey(seed)))
        .approvers(TrustRoot.approvers(List.of(approverKey(seed).trusted())))
        .reviewers(TrustRoot.reviewers(List.of(reviewerKey(seed).trusted())))
        .clock(clock)
        .entropy(new SeededEntropy(entropySeed))
        .crashSeam(seam)
        .workerId(worker)
        .leaseTtl(ttl)
        .build();
  }
}
