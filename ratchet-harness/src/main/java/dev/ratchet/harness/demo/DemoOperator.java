package dev.ratchet.harness.demo;

import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonNull;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Approval;
import dev.ratchet.model.Phase;
import dev.ratchet.model.ReviewDecision;
import dev.ratchet.model.RunState;
import dev.ratchet.sign.Role;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.store.Fence;

/**
 * The people and clients around the demo's run, acting through the library's front door and the
 * adapter only: the approver (alice) who signs a waiting write, a foreign client that reuses the
 * run's key for another write, and the reviewer (rita) who signs a replan of the frozen run. Each
 * signs with its own key and delivers in one call ({@code Ratchet.deliver}, SPEC D19).
 */
final class DemoOperator {
  private final Demo demo;

  DemoOperator(Demo demo) {
    this.demo = demo;
  }

  /** The operator's side of an approval wait: sign with alice's key and deliver. */
  void approve(String actionId) {
    try (DemoRun r = new DemoRun(demo)) {
      RunState st = r.state;
      if (st.pending() == null || !st.pending().action().actionId().equals(actionId)) {
        throw new RatchetException(
            ErrorCode.INTERNAL, "no pending write " + actionId + " to approve");
      }
      SigningKey alice = demo.home().signer(Role.APPROVER, DemoHome.APPROVER);
      Approval a =
          Approval.ofPending(
              alice.label(),
              st,
              r.task.task(),
              st.usage().proposals() + 10,
              demo.clock().millis() + 600_000,
              "approval-" + demo.entropy().hex128());
      r.ratchet.deliver(dev.ratchet.Ratchet.sign(a, alice));
      demo.say("  approval of " + actionId + " signed by alice and delivered to the run's inbox");
    }
  }

  /**
   * A foreign client reuses the run's pending key for a different write at the adapter; returns the
   * key, which the replan quarantines.
   */
  String foreignWrite() {
    try (DemoRun r = new DemoRun(demo)) {
      String key = r.state.pending().key();
      JsonObject args =
          JsonObject.builder()
              .put("path", DemoScenario.FOREIGN_FILE)
              .put("content", "written by another client under the run's key\n")
              .put("expected_sha256", JsonNull.INSTANCE)
              .build();
      r.adapter.execute(
          new WriteIntent(r.adapter.namespace(), "write_file", args, "reversible_write"),
          key,
          new Fence("foreign-client", "foreign", 1),
          ApprovalBinding.NONE);
      demo.say(
          "a foreign client wrote "
              + DemoScenario.FOREIGN_FILE
              + " under the pending key "
              + key.substring(0, 8)
              + "... (same key, different intent)");
      return key;
    }
  }

  boolean isFrozen() {
    try (DemoRun r = new DemoRun(demo)) {
      return r.state.phase() == Phase.NEEDS_REVIEW;
    }
  }

  /** The reviewer's side: a replan signed with rita's key, bound to the case and environment. */
  void signReplan() {
    try (DemoRun r = new DemoRun(demo)) {
      SigningKey rita = demo.home().signer(Role.REVIEWER, DemoHome.REVIEWER);
      ReviewDecision d =
          ReviewDecision.onCase(
              rita.label(),
              r.state,
              r.task.task(),
              ReviewDecision.REPLAN,
              r.adapter.observe(),
              "decision-" + demo.entropy().hex128());
      r.ratchet.deliver(dev.ratchet.Ratchet.sign(d, rita));
      demo.say(
          "reviewer rita signed a replan of case "
              + r.state.review().caseId()
              + " ("
              + r.state.review().reason()
              + "): the old key is quarantined, the write gets a new key");
    }
  }
}
