package dev.ratchet.agentdemo;

import dev.ratchet.Ratchet;
import dev.ratchet.Run;
import dev.ratchet.adapter.ActionClass;
import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapters.HttpAction;
import dev.ratchet.adapters.LedgerApi;
import dev.ratchet.browser.BrowserAdapter;
import dev.ratchet.browser.PageForm;
import dev.ratchet.harness.HaltingSeam;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.model.Budgets;
import dev.ratchet.model.Phase;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.outcome.Recovery;
import dev.ratchet.outcome.StepOutcome;
import dev.ratchet.seam.CrashPoint;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;

/**
 * One worker JVM of {@code ratchet demo browser}: {@code BrowserDemoWorker <dir> <ledger-uri>
 * <worker number> <start or resume>}. It drives the run through the reference ledger's web front
 * end in headless Chromium: the order form, then the pay form, then the account check. The first
 * worker is armed to die right after clicking Pay (the service has committed the payment; the run
 * has not); it prints {@code CRASH <point>} and waits for the parent's SIGKILL.
 */
public final class BrowserDemoWorker {
  static final String ACCOUNT = "acct-web";
  static final String RUN = "browser-run";
  static final long PRICE_CENTS = 1250;
  static final long QUANTITY = 2;
  static final String RECOVERY = "RECOVERY ";
  static final String STEP = "STEP ";
  static final String ENDED = "ENDED ";

  /** Long enough for a browser step on a loaded machine (Chromium starts in seconds). */
  private static final Duration LEASE_TTL = Duration.ofMinutes(2);

  /** Selenium's log lines (a killed browser's lost requests) would clutter the demo's story. */
  private static final java.util.logging.Logger SELENIUM =
      java.util.logging.Logger.getLogger("org.openqa.selenium");

  private BrowserDemoWorker() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    URI ledger = URI.create(args[1]);
    int worker = Integer.parseInt(args[2]);
    boolean start = args[3].equals("start");
    SELENIUM.setLevel(java.util.logging.Level.OFF);
    PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
    HaltingSeam seam = new HaltingSeam(CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT, out);
    // Each worker's clock runs a lease lifetime ahead: it never waits for a dead worker's lease.
    Duration ahead = LEASE_TTL.plusSeconds(1).multipliedBy(worker);
    Clock clock = Clock.offset(Clock.systemUTC(), ahead);
    String secret = LedgerApi.clientSecret(dir.resolve("ledger.db.client-secret"));
    try (JdbcStore store = AgentDemoSetup.store(dir, clock);
        BrowserAdapter browser = adapter(ledger, secret, seam)) {
      Ratchet ratchet =
          AgentDemoSetup.ratchet(dir, store, clock, seam, "browser-worker-" + worker, LEASE_TTL);
      try (Run run =
          start ? ratchet.start(task(), RUN, browser) : ratchet.resume(task(), RUN, browser)) {
        Recovery r = run.recovery();
        if (r != null) {
          out.println(RECOVERY + r.found().wireName() + " " + r.did().wireName());
        }
        drive(run, seam, out);
        out.println(ENDED + run.state().phase().wireName());
      }
    }
    System.exit(0);
  }

  /** The web front end's order and pay forms, and the account check at the service's API. */
  static BrowserAdapter adapter(URI ledger, String secret, dev.ratchet.seam.CrashSeam seam) {
    return BrowserAdapter.builder(ledger)
        .pathPrefix("/web/accounts/")
        .form(new PageForm("order", "place-order", true))
        .form(new PageForm("pay", "pay-button", true))
        .verification(
            HttpAction.get(
                ActionSpec.of(
                    "check_account",
                    ActionClass.VERIFY,
                    "browser.verify",
                    "read_only",
                    (a, p) -> {},
                    a -> ((JsonString) a.get("account").orElseThrow()).value()),
                "/v1/accounts/{account}"))
        .clientSecret(secret)
        .crashSeam(seam)
        .build();
  }

  /** Order and pay through the page; the service's account must show one paid order. */
  static TaskSpec task() {
    long total = QUANTITY * PRICE_CENTS;
    return new TaskSpec(
        "order-and-pay-in-the-browser",
        "v1",
        "browser-policy",
        "v1",
        BrowserAdapter.NAMESPACE,
        Set.of("browser.write", "browser.verify"),
        Set.of("fill_and_submit", "check_account"),
        Set.of("order", "pay", ACCOUNT),
        Set.of(),
        new Budgets(100, 50, 3_600_000L, 1_000_000),
        JsonObject.EMPTY,
        JsonObject.builder()
            .put(
                "expect",
                JsonObject.builder()
                    .put(
                        ACCOUNT,
                        JsonObject.builder()
                            .put("orders", 1)
                            .put("ordered_cents", total)
                            .put("paid_cents", total)
                            .build())
                    .build())
            .build());
  }

  /** A pending write is reconciled first; then order, pay (armed), check, finish. */
  private static void drive(Run run, HaltingSeam seam, PrintWriter out) {
    String orderId = null;
    int guard = 0;
    while (run.state().phase() == Phase.RUNNING && guard++ < 20) {
      if (run.state().pending() != null) {
        StepOutcome o = run.reconcile();
        out.println(STEP + o.actionId() + " " + o.kind().name().toLowerCase());
        continue;
      }
      long cursor = run.state().cursor();
      String id = "step-" + cursor;
      JsonObject write;
      if (cursor == 0) {
        write =
            form(
                "order",
                "sku",
                "sku-42",
                "quantity",
                Long.toString(QUANTITY),
                "unit_price_cents",
                Long.toString(PRICE_CENTS));
      } else if (cursor == 1 && orderId != null) {
        write =
            form("pay", "order_id", orderId, "amount_cents", Long.toString(QUANTITY * PRICE_CENTS));
        seam.arm(); // the first worker dies right after clicking Pay
      } else if (cursor == 2) {
        run.apply(
            run.action(id, "check_account", JsonObject.builder().put("account", ACCOUNT).build()));
        out.println(STEP + id + " check_account");
        continue;
      } else if (cursor > 2) {
        run.apply(run.action(id, "finish", JsonObject.EMPTY));
        continue;
      } else {
        return; // an order without its id in this worker: not a state this demo reaches
      }
      Proposal p = run.propose(run.action(id, "fill_and_submit", write));
      if (p.kind() != Proposal.Kind.PENDING) {
        return;
      }
      StepOutcome o = run.execute(id);
      out.println(STEP + id + " " + o.kind().name().toLowerCase());
      if (o.kind() == StepOutcome.Kind.FROZEN) {
        return;
      }
      if (cursor == 0) {
        orderId = o.receipt().businessId();
      }
    }
  }

  private static JsonObject form(String form, String... fields) {
    JsonObject.Builder f = JsonObject.builder();
    for (int i = 0; i < fields.length; i += 2) {
      f.put(fields[i], fields[i + 1]);
    }
    return JsonObject.builder()
        .put("path", "/web/accounts/" + ACCOUNT)
        .put("form", form)
        .put("fields", f.build())
        .build();
  }
}
