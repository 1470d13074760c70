package dev.ratchet.browser;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.Run;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.harness.ChildJvm;
import dev.ratchet.harness.HaltingSeam;
import dev.ratchet.harness.ledger.ReferenceService;
import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.jdbc.OpenMode;
import dev.ratchet.jdbc.StoreOptions;
import dev.ratchet.json.JsonString;
import dev.ratchet.model.Phase;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.store.Fence;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.RuntimeFixture;
import dev.ratchet.testkit.SeededEntropy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Real process death in each crash window of a browser write: a worker JVM drives the run through
 * headless Chromium and is SIGKILLed at the window (its browser dies with it, bubblewrap's {@code
 * --die-with-parent}); a second worker resumes with a fresh browser, looks the key up at the
 * service and reconciles, and the service's own ledger counts every order and payment once. A
 * canary that resubmits the interrupted form with a fresh key and no lookup counts one order too
 * many, so the count is a check that can fail.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BrowserCrashWindowsTest {
  private Path dir;
  private ReferenceService service;

  /** The recovering workers' adapter: one browser for every recovery (each a fresh run). */
  private BrowserAdapter survivor;

  @BeforeAll
  void start() throws Exception {
    dir = Files.createTempDirectory("ratchet-browser-crash");
    service =
        ReferenceService.start(
            dir.resolve("ledger.db"),
            0,
            new ManualClock(BrowserWorkerChild.T0),
            new SeededEntropy(9));
    survivor = WebLedger.adapter(service, CrashSeam.NONE);
  }

  @AfterAll
  void stop() {
    survivor.close();
    service.close();
  }

  /**
   * Each window once, alternately in an order's write and in the payment's (one worker JVM and one
   * Chromium per window, so payments add no browser starts).
   */
  @Test
  void aWorkerKilledInEachWindowOfABrowserWriteLeavesEachOrderAndPaymentOnce() throws Exception {
    List<String> problems = new ArrayList<>();
    Map<CrashPoint, String> windows = new LinkedHashMap<>();
    windows.put(CrashPoint.AFTER_INTENT_COMMIT, "order");
    windows.put(CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT, "pay");
    windows.put(CrashPoint.RECEIPT_ONLY_IN_MEMORY, "order");
    windows.put(CrashPoint.AFTER_RECEIPT_COMMIT, "pay");
    for (Map.Entry<CrashPoint, String> w : windows.entrySet()) {
      CrashPoint point = w.getKey();
      String account = "acct-" + point.name().toLowerCase();
      Path db = dir.resolve(point.name() + ".db");
      ChildJvm child = killAt(point, db, account, w.getValue());
      if (child.seen().stream().noneMatch(l -> l.equals(HaltingSeam.MARKER + point.name()))) {
        problems.add(point + ": the worker never reached the window: " + child.seen());
        continue;
      }
      long paidBefore = service.payments(account);
      Phase end = recover(db, account);
      long orders = WebLedger.orders(service, account);
      long payments = service.payments(account);
      if (end != Phase.COMPLETED || orders != 2 || payments != 1) {
        problems.add(
            point
                + " in the "
                + w.getValue()
                + ": run "
                + end
                + ", "
                + orders
                + " orders and "
                + payments
                + " payments in the service's ledger");
      }
      if (w.getValue().equals("pay") && paidBefore != 1) {
        problems.add(point + ": the killed worker had not paid yet: " + paidBefore);
      }
    }
    assertThat(problems).isEmpty();
  }

  @Test
  void theCanaryThatResubmitsWithAFreshKeyCountsAnOrderTwice() throws Exception {
    String account = "acct-canary";
    killAt(CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT, dir.resolve("canary.db"), account, "order");
    assertThat(WebLedger.orders(service, account)).isEqualTo(1);
    // A naive recovery: submit the interrupted order form again under a fresh key, no lookup.
    survivor.execute(
        WebLedger.orderIntent(account, "sku-1", 1, 100),
        "fresh-key",
        new Fence(runId(account), "canary", 2),
        ApprovalBinding.NONE);
    // The service's own count catches it: the one order the run placed now exists twice.
    assertThat(WebLedger.orders(service, account)).isEqualTo(2);
  }

  private ChildJvm killAt(CrashPoint point, Path db, String account, String write)
      throws Exception {
    Path secret = dir.resolve("secret-" + point.name());
    Files.writeString(secret, service.clientSecret());
    List<String> argv =
        ChildJvm.command(
            ChildJvm.FAST_START,
            System.getProperty("java.class.path"),
            BrowserWorkerChild.class.getName(),
            List.of(
                db.toString(),
                service.uri().toString(),
                secret.toString(),
                runId(account),
                account,
                point.name(),
                write));
    ChildJvm child =
        ChildJvm.start(new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.DISCARD));
    String line;
    while ((line = child.next(60_000)) != null && !line.startsWith(HaltingSeam.MARKER)) {
      // progress lines, if any
    }
    child.kill();
    return child;
  }

  /** The account's first order in the service's orders list (what its page shows). */
  private String firstOrder(String account) {
    return service.orders().stream()
        .filter(o -> o.get("account").orElseThrow().equals(new JsonString(account)))
        .map(o -> ((JsonString) o.get("order_id").orElseThrow()).value())
        .findFirst()
        .orElseThrow();
  }

  /** One run per account: keys are bound to the run (ADR 0031), and the service is shared. */
  private static String runId(String account) {
    return "run-" + account;
  }

  /**
   * A second worker, a minute later (the dead worker's lease lapsed), with another browser than the
   * dead worker's (which died with it).
   */
  private Phase recover(Path db, String account) {
    ManualClock clock = new ManualClock(BrowserWorkerChild.T0.plus(Duration.ofMinutes(1)));
    JdbcStore store =
        JdbcStore.open(
            Database.sqlite(db), StoreOptions.defaults(clock).withOpenMode(OpenMode.MUST_EXIST));
    try {
      RuntimeFixture f = new RuntimeFixture(BrowserRuns.SEED, clock, store, store);
      try (Run run =
          f.ratchet("worker-2")
              .resume(BrowserRuns.taskWithPayment(account), runId(account), survivor)) {
        BrowserRuns.drive(run, account, () -> firstOrder(account), () -> {});
        return run.state().phase();
      }
    } finally {
      store.close();
    }
  }
}
