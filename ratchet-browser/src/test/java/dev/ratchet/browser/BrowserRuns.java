package dev.ratchet.browser;

import dev.ratchet.Run;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Budgets;
import dev.ratchet.model.Phase;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.outcome.Proposal;
import dev.ratchet.outcome.StepOutcome;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A browser task for the runtime: two orders placed through the web front end's {@code order} form,
 * the account verified at the service, finish. The driver is a deterministic agent that reconciles
 * a pending write first (as every recovering worker does).
 */
final class BrowserRuns {
  static final long SEED = 40;
  static final long FIRST_ORDER_CENTS = 100;

  private BrowserRuns() {}

  static TaskSpec task(String account) {
    return task(account, Set.of("order", account), 0);
  }

  /** The same two orders, and the first of them paid through the {@code pay} form. */
  static TaskSpec taskWithPayment(String account) {
    return task(account, Set.of("order", "pay", account), FIRST_ORDER_CENTS);
  }

  private static TaskSpec task(String account, Set<String> targets, long paid) {
    return new TaskSpec(
        "order-through-the-web",
        "v1",
        "browser-policy",
        "v1",
        BrowserAdapter.NAMESPACE,
        Set.of("browser.write", "browser.verify"),
        Set.of("fill_and_submit", "check_account"),
        targets,
        Set.of(),
        new Budgets(500, 100, 86_400_000L, 1_000_000),
        JsonObject.EMPTY,
        JsonObject.builder()
            .put(
                "expect",
                JsonObject.builder()
                    .put(
                        account,
                        JsonObject.builder()
                            .put("orders", 2)
                            .put("ordered_cents", 100 + 2 * 250)
                            .put("paid_cents", paid)
                            .build())
                    .build())
            .build());
  }

  static List<JsonObject> writes(String account) {
    return List.of(
        WebLedger.order(account, "sku-1", 1, 100), WebLedger.order(account, "sku-2", 2, 250));
  }

  /** Drives the run to its end: pending write first, then the next order, verify, finish. */
  static void drive(Run run, String account) {
    drive(run, account, null, () -> {});
  }

  /**
   * As {@link #drive(Run, String)}; with {@code firstOrderId}, a third write pays the first order:
   * its id from the order step's receipt when this driver placed it, else from {@code firstOrderId}
   * (a recovering driver reads the page's orders list). {@code beforePay} runs once the payment is
   * proposed, just before it is executed.
   */
  static void drive(Run run, String account, Supplier<String> firstOrderId, Runnable beforePay) {
    List<JsonObject> orders = writes(account);
    int writes = firstOrderId == null ? orders.size() : orders.size() + 1;
    String placed = null;
    int guard = 0;
    while (run.state().phase() == Phase.RUNNING && guard++ < 50) {
      if (run.state().pending() != null) {
        run.reconcile();
        continue;
      }
      int cursor = (int) run.state().cursor();
      String id = "step-" + cursor + "-" + run.state().usage().proposals();
      if (cursor < writes) {
        JsonObject w;
        if (cursor < orders.size()) {
          w = orders.get(cursor);
        } else {
          String order = placed != null ? placed : firstOrderId.get();
          w = WebLedger.payIntent(account, order, FIRST_ORDER_CENTS).arguments();
        }
        Proposal p = run.propose(run.action(id, "fill_and_submit", w));
        if (p.kind() != Proposal.Kind.PENDING) {
          continue;
        }
        if (cursor >= orders.size()) {
          beforePay.run();
        }
        StepOutcome o = run.execute(id);
        if (o.kind() == StepOutcome.Kind.FROZEN) {
          return;
        }
        if (cursor == 0 && o.receipt() != null) {
          placed = o.receipt().businessId();
        }
      } else if (cursor == writes) {
        run.apply(
            run.action(id, "check_account", JsonObject.builder().put("account", account).build()));
      } else {
        run.apply(run.action(id, "finish", JsonObject.EMPTY));
      }
    }
  }
}
