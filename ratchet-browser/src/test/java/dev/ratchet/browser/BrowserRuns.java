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

/**
 * A browser task for the runtime: two orders placed through the web front end's {@code order} form,
 * the account verified at the service, finish. The driver is a deterministic agent that reconciles
 * a pending write first (as every recovering worker does).
 */
final class BrowserRuns {
  static final long SEED = 40;

  private BrowserRuns() {}

  static TaskSpec task(String account) {
    return new TaskSpec(
        "order-through-the-web",
        "v1",
        "browser-policy",
        "v1",
        BrowserAdapter.NAMESPACE,
        Set.of("browser.write", "browser.verify"),
        Set.of("fill_and_submit", "check_account"),
        Set.of("order", account),
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
                            .put("paid_cents", 0)
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
    List<JsonObject> writes = writes(account);
    int guard = 0;
    while (run.state().phase() == Phase.RUNNING && guard++ < 50) {
      if (run.state().pending() != null) {
        run.reconcile();
        continue;
      }
      int cursor = (int) run.state().cursor();
      String id = "step-" + cursor + "-" + run.state().usage().proposals();
      if (cursor < writes.size()) {
        Proposal p = run.propose(run.action(id, "fill_and_submit", writes.get(cursor)));
        if (p.kind() == Proposal.Kind.PENDING
            && run.execute(id).kind() == StepOutcome.Kind.FROZEN) {
          return;
        }
      } else if (cursor == writes.size()) {
        run.apply(
            run.action(id, "check_account", JsonObject.builder().put("account", account).build()));
      } else {
        run.apply(run.action(id, "finish", JsonObject.EMPTY));
      }
    }
  }
}
