package dev.ratchet.harness.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.Run;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapters.IdempotentHttpAdapter;
import dev.ratchet.adapters.LedgerApi;
import dev.ratchet.adapters.Ledgers;
import dev.ratchet.adapters.RuntimeCrashMatrix;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.model.Phase;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.testkit.CrashPlan;
import dev.ratchet.testkit.RuntimeFixture;
import dev.ratchet.testkit.SeededEntropy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime with the HTTP adapter against the reference service: three orders (not idempotent), a
 * verified account, finish. Each cell has its own account; the service restarts on its SQLite file
 * at every recovery; the ledger's own orders are counted.
 */
class HttpRuntimeTest extends RuntimeCrashMatrix {
  @TempDir Path dir;
  private ReferenceService service;
  private RuntimeFixture fixture;

  static String account(long cell) {
    return "acct-" + cell;
  }

  @Override
  protected TaskSpec task(long cell, Set<String> approvalRequired) {
    JsonObject expected =
        JsonObject.builder()
            .put("orders", 3)
            .put("ordered_cents", 1599)
            .put("paid_cents", 0)
            .build();
    return new TaskSpec(
        "order-supplies",
        "v1",
        "ledger-policy",
        "v1",
        LedgerApi.NAMESPACE,
        Set.of("ledger.write", "ledger.read", "ledger.verify"),
        Set.of("create_order", "get_account", "check_account"),
        Set.of(account(cell)),
        approvalRequired,
        budgets(),
        JsonObject.EMPTY,
        JsonObject.builder()
            .put("expect", JsonObject.builder().put(account(cell), expected).build())
            .build());
  }

  @Override
  protected List<Step> writes(long cell) {
    return List.of(
        new Step("create_order", Ledgers.order(account(cell), "sku-1", 1, 100)),
        new Step("create_order", Ledgers.order(account(cell), "sku-2", 2, 250)),
        new Step("create_order", Ledgers.order(account(cell), "sku-3", 1, 999)));
  }

  @Override
  protected Step verification(long cell) {
    return new Step("check_account", Ledgers.account(account(cell)));
  }

  @Override
  protected EnvironmentAdapter openEnvironment(long cell, RuntimeFixture f, CrashSeam seam) {
    fixture = f;
    if (service == null) {
      service = ReferenceService.start(dir.resolve("ledger.db"), 0, f.clock, new SeededEntropy(1));
    }
    return adapter(seam);
  }

  /**
   * A new client instance, as the recovering worker would open it. The service keeps running (it is
   * another process); its own restarts are covered by the lost-response test below and by
   * ReferenceServiceTest (a JDK HttpServer takes about a second to stop, too slow per cell).
   */
  @Override
  protected EnvironmentAdapter reopenEnvironment(long cell, RuntimeFixture f, CrashSeam seam) {
    return adapter(seam);
  }

  private EnvironmentAdapter restartService(RuntimeFixture f, CrashSeam seam) {
    service.close();
    service = ReferenceService.start(dir.resolve("ledger.db"), 0, f.clock, new SeededEntropy(1));
    return adapter(seam);
  }

  private IdempotentHttpAdapter adapter(CrashSeam seam) {
    IdempotentHttpAdapter a = service.adapter();
    a.crashSeam(seam);
    return a;
  }

  @Override
  protected List<String> ledgerProblems(long cell) {
    List<String> skus = new ArrayList<>();
    for (JsonObject o : service.orders()) {
      if (o.get("account").orElseThrow().equals(new JsonString(account(cell)))) {
        skus.add(((JsonString) o.get("sku").orElseThrow()).value());
      }
    }
    return skus.equals(List.of("sku-1", "sku-2", "sku-3"))
        ? List.of()
        : List.of("the ledger holds orders " + skus + " for " + account(cell));
  }

  @Override
  protected void closeEnvironment() {
    // The service outlives each cell (one account per cell); it stops after the test.
  }

  @AfterEach
  void stop() {
    if (service != null) {
      service.close();
    }
  }

  @Test
  void aLostResponseIsReconciledFromTheServiceAfterTheWorkerDies() {
    long cell = 30_000;
    RuntimeFixture f = RuntimeFixture.inMemory(cell);
    TaskSpec task = task(cell, Set.of());
    CrashPlan plan = new CrashPlan();
    EnvironmentAdapter adapter = openEnvironment(cell, f, plan);
    Run run = f.ratchet("worker-1").start(task, "run-lost", adapter);
    Step first = writes(cell).get(0);
    Proposal p = run.propose(run.action("w1", first.kind(), first.arguments()));
    service.loseNextResponses(1);
    assertThatThrownBy(() -> run.execute(p.action().actionId()))
        .isInstanceOfSatisfying(
            RatchetException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE));
    // The worker dies with the outcome unknown; another resumes after the lease expires.
    f.clock.advance(Duration.ofMinutes(1));
    try (Run resumed = f.ratchet("worker-2").resume(task, "run-lost", restartService(f, plan))) {
      // Recovery finds the order in the service's ledger and reconciles it; nothing runs twice.
      assertThat(resumed.recovery().found())
          .isEqualTo(dev.ratchet.outcome.Recovery.Found.EFFECT_WITHOUT_RECEIPT);
      assertThat(resumed.recovery().did()).isEqualTo(dev.ratchet.outcome.Recovery.Did.RECONCILED);
      assertThat(resumed.recovery().outcome().kind()).isEqualTo(StepOutcome.Kind.RECONCILED);
      drive(f, task, resumed, Approvals.NONE, plan, null, -1, cell);
      assertThat(resumed.state().phase()).isEqualTo(Phase.COMPLETED);
    }
    assertThat(ledgerProblems(cell)).isEmpty();
    assertThat(fixture).isSameAs(f);
  }
}
