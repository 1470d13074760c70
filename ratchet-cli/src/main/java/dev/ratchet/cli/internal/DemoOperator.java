package dev.ratchet.cli.internal;

import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonNull;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Approval;
import dev.ratchet.model.Phase;
import dev.ratchet.model.ReviewDecision;
import dev.ratchet.model.RunState;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.sign.Role;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.store.Fence;
import dev.ratchet.store.InboxItem;

/**
 * The people and clients around the demo's run, acting through the store and the adapter only: the
 * approver (alice) who signs a waiting write, a foreign client that reuses the run's key for
 * another write, and the reviewer (rita) who signs a replan of the frozen run.
 */
final class DemoOperator {
  private final Demo demo;

  DemoOperator(Demo demo) {
    this.demo = demo;
  }

  /** The operator's side of an approval wait: sign with alice's key and deliver. */
  void approve(String actionId) {
    try (Session s = demo.openSession()) {
      Session.Checked c = s.check(DemoScenario.RUN_ID);
      RunState st = c.state();
      if (st.pending() == null || !st.pending().action().actionId().equals(actionId)) {
        throw new RatchetException(
            ErrorCode.INTERNAL, "no pending write " + actionId + " to approve");
      }
      SigningKey alice = KeyConfig.signer(null, "alice", s.home(), Role.APPROVER);
      long now = demo.services().clock().millis();
      Approval a =
          Approval.ofPending(
              alice.label(),
              st,
              c.task().task(),
              st.usage().proposals() + 10,
              now + 600_000,
              Decisions.nonce("approval", demo.services().entropy()));
      Decisions.deliver(
          s.store(),
          st,
          InboxItem.Kind.APPROVAL,
          a.nonce(),
          SignedEnvelope.sign(a.toJson(), alice));
      demo.say("  approval of " + actionId + " signed by alice and delivered to the run's inbox");
    }
  }

  /**
   * A foreign client reuses the run's pending key for a different write at the adapter; returns the
   * key, which the replan quarantines.
   */
  String foreignWrite() {
    try (Session s = demo.openSession()) {
      Session.Checked c = s.check(DemoScenario.RUN_ID);
      String key = c.state().pending().key();
      EnvironmentAdapter ws = c.adapter();
      JsonObject args =
          JsonObject.builder()
              .put("path", DemoScenario.FOREIGN_FILE)
              .put("content", "written by another client under the run's key\n")
              .put("expected_sha256", JsonNull.INSTANCE)
              .build();
      ws.execute(
          new WriteIntent(ws.namespace(), "write_file", args, "reversible_write"),
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
    try (Session s = demo.openSession()) {
      return s.check(DemoScenario.RUN_ID).state().phase() == Phase.NEEDS_REVIEW;
    }
  }

  /** The reviewer's side: a replan signed with rita's key, bound to the case and environment. */
  void signReplan() {
    try (Session s = demo.openSession()) {
      Session.Checked c = s.check(DemoScenario.RUN_ID);
      SigningKey rita = KeyConfig.signer(null, "rita", s.home(), Role.REVIEWER);
      ReviewDecision d =
          Decisions.decision(
              rita.label(),
              c.state(),
              c.task().task(),
              ReviewDecision.REPLAN,
              c.adapter().observe(),
              Decisions.nonce("decision", demo.services().entropy()));
      Decisions.deliver(
          s.store(),
          c.state(),
          InboxItem.Kind.REVIEW_DECISION,
          d.nonce(),
          SignedEnvelope.sign(d.toJson(), rita));
      demo.say(
          "reviewer rita signed a replan of case "
              + c.state().review().caseId()
              + " ("
              + c.state().review().reason()
              + "): the old key is quarantined, the write gets a new key");
    }
  }
}
