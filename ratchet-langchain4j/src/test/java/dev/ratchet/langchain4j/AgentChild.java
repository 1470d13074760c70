package dev.ratchet.langchain4j;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapters.IdempotentHttpAdapter;
import dev.ratchet.adapters.LedgerApi;
import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.jdbc.OpenMode;
import dev.ratchet.jdbc.StoreOptions;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Budgets;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.RuntimeFixture;
import dev.ratchet.worker.DriveResult;
import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Set;

/**
 * One worker JVM of {@link AgentCrashTest}: {@code AgentChild <dir> <ledger-uri> <account> <point
 * or none> <canary true/false> <attempt>}. Attempt 1 starts the run with {@code point} armed; at it
 * the child prints {@code CRASH <point>} and waits for its SIGKILL (halting itself if none comes).
 * Attempt 2 resumes disarmed, with its clock past the dead worker's lease, and prints {@code ENDED
 * <phase>}. The store is a SQLite file in {@code dir}; the model's calls go to {@code dir/calls}.
 */
public final class AgentChild {
  static final String CRASH = "CRASH ";
  static final String ENDED = "ENDED ";
  private static final long WAIT_FOR_KILL_MS = 20_000;

  private AgentChild() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    URI ledger = URI.create(args[1]);
    String account = args[2];
    String point = args[3];
    boolean canary = Boolean.parseBoolean(args[4]);
    int attempt = Integer.parseInt(args[5]);
    Instant base = Instant.parse("2026-07-18T09:00:00Z");
    ManualClock clock =
        new ManualClock(
            attempt == 1 ? base : base.plus(RuntimeFixture.LEASE_TTL.multipliedBy(attempt)));
    CrashSeam seam = point.equals("none") ? CrashSeam.NONE : halting(CrashPoint.valueOf(point));
    try (JdbcStore store =
        JdbcStore.open(
            Database.sqlite(dir.resolve("store.db")),
            StoreOptions.defaults(clock).withOpenMode(OpenMode.CREATE))) {
      RuntimeFixture f = new RuntimeFixture(7, clock, store, store);
      IdempotentHttpAdapter http =
          LedgerApi.adapter(ledger, LedgerApi.clientSecret(dir.resolve("ledger.db.client-secret")));
      http.crashSeam(seam);
      EnvironmentAdapter adapter = canary ? new RetryKeyCanary(http, attempt) : http;
      Ratchet ratchet = f.ratchet("worker-" + attempt, seam);
      TaskSpec task = task(account);
      DurableAgent agent =
          DurableAgent.builder(new LedgerChatModel(account, dir.resolve("calls")))
              .goal("order sku-1 and two sku-2 for " + account + ", then check the account")
              .maxTurns(6)
              .build();
      try (Run run =
          attempt == 1
              ? ratchet.start(task, "agent-run", adapter)
              : ratchet.resume(task, "agent-run", adapter)) {
        DriveResult r = agent.drive(run, task);
        System.out.println(ENDED + run.state().phase().wireName() + " " + r.kind());
        System.out.flush();
      }
    }
  }

  /** Two orders (100 + 2 x 250 cents), checked by the ledger's verifier. */
  static TaskSpec task(String account) {
    JsonObject expected =
        JsonObject.builder()
            .put("orders", 2)
            .put("ordered_cents", 600)
            .put("paid_cents", 0)
            .build();
    return new TaskSpec(
        "agent-orders",
        "v1",
        "ledger-policy",
        "v1",
        LedgerApi.NAMESPACE,
        Set.of("ledger.write", "ledger.read", "ledger.verify"),
        Set.of("create_order", "get_account", "check_account"),
        Set.of(account),
        Set.of(),
        new Budgets(500, 100, 86_400_000L, 1_000_000),
        JsonObject.EMPTY,
        JsonObject.builder()
            .put("expect", JsonObject.builder().put(account, expected).build())
            .build());
  }

  /** Dies for real at {@code armed}: tells the parent, waits for its SIGKILL, else halts. */
  private static CrashSeam halting(CrashPoint armed) {
    return reached -> {
      if (reached != armed) {
        return;
      }
      System.out.println(CRASH + reached.name());
      System.out.flush();
      try {
        Thread.sleep(WAIT_FOR_KILL_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      Runtime.getRuntime().halt(137);
    };
  }
}
