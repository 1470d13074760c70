package dev.ratchet.ops;

import dev.ratchet.adapter.Receipt;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonNull;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.model.Approval;
import dev.ratchet.model.InboxVerdict;
import dev.ratchet.model.PendingIntent;
import dev.ratchet.model.ReviewCase;
import dev.ratchet.model.ReviewDecision;
import dev.ratchet.model.RunState;
import dev.ratchet.model.SignedEnvelope;
import dev.ratchet.store.InboxItem;
import dev.ratchet.store.Lease;
import java.util.List;
import java.util.Optional;

/**
 * The JSON shapes the command line prints with {@code --json} (docs/cli.md). They show ids,
 * digests, fingerprints and signatures, never key material.
 */
public final class Views {
  private Views() {}

  /** The text of a string member, the canonical text of any other value, "" when absent/null. */
  public static String text(JsonObject o, String key) {
    JsonValue v = o.get(key).orElse(JsonNull.INSTANCE);
    if (v instanceof JsonString s) {
      return s.value();
    }
    return v instanceof JsonNull ? "" : v.toString();
  }

  static JsonValue orNull(JsonValue v) {
    return v == null ? JsonNull.INSTANCE : v;
  }

  public static JsonObject run(
      String runId,
      String taskId,
      long generation,
      RunState s,
      int planSteps,
      Optional<Lease> lease,
      Optional<dev.ratchet.outcome.Waiting> waiting,
      long nowMs) {
    return JsonObject.builder()
        .put("run_id", runId)
        .put("task_id", taskId)
        .put("generation", generation)
        .put("verified", true)
        .put("phase", s.phase().wireName())
        // The phase, or what it waits for from a person (issue 17): awaiting_approval|review.
        .put(
            "status", waiting.map(dev.ratchet.outcome.Waiting::status).orElse(s.phase().wireName()))
        .put("waiting", orNull(waiting.map(Views::waiting).orElse(null)))
        .put("stop_reason", s.stopReason())
        .put("cursor", s.cursor())
        .put("plan_steps", planSteps)
        .put("proposals", s.usage().proposals())
        .put("steps", s.usage().steps())
        .put("environment", s.binding().toJson())
        .put("pending", orNull(s.pending() == null ? null : pending(s.pending(), nowMs, true)))
        .put("review_case", s.review() == null ? null : s.review().caseId())
        .put("lease", orNull(lease.map(Views::lease).orElse(null)))
        .build();
  }

  public static JsonObject refused(
      String runId, String taskId, long generation, String code, String why) {
    return JsonObject.builder()
        .put("run_id", runId)
        .put("task_id", taskId)
        .put("generation", generation)
        .put("verified", false)
        .put("error_code", code)
        .put("problem", why)
        .build();
  }

  static JsonObject waiting(dev.ratchet.outcome.Waiting w) {
    return JsonObject.builder()
        .put("for", w.what().wireName())
        .put("delivered", w.delivered())
        .put("refused", w.refused())
        .put("hint", w.hint())
        .build();
  }

  static JsonObject lease(Lease l) {
    return JsonObject.builder()
        .put("owner", l.owner())
        .put("version", l.version())
        .put("expires_at", l.expiresAt().toString())
        .build();
  }

  public static JsonObject pending(PendingIntent p, long nowMs, boolean brief) {
    JsonObject.Builder b =
        JsonObject.builder()
            .put("action_id", p.action().actionId())
            .put("kind", p.action().kind())
            .put("arguments", p.action().arguments())
            .put("idempotency_key", p.key())
            .put("intent_digest", p.intentDigest());
    if (!brief) {
      b.put("risk", p.action().risk()).put("pre_state", p.preState().toJson());
    }
    b.put("approval", orNull(p.approval() == null ? null : approval(p.approval(), nowMs)));
    return b.build();
  }

  public static JsonObject approval(SignedEnvelope env, long nowMs) {
    Approval a = Approval.fromJson(env.payload(), "approval.payload");
    return JsonObject.builder()
        .put("approver_id", a.approverId())
        .put("nonce", a.nonce())
        .put("expires_at_ms", a.expiresAtMs())
        .put("expires_at_proposal", a.expiresAtProposal())
        .put("expired_by_clock", a.expiresAtMs() <= nowMs)
        .put("fingerprint", env.fingerprint())
        .build();
  }

  public static JsonObject review(ReviewCase c) {
    return JsonObject.builder()
        .put("case_id", c.caseId())
        .put("reason", c.reason())
        .put("pending", orNull(c.pending() == null ? null : c.pending().toJson()))
        .put(
            "observed_receipt",
            orNull(c.observedReceipt() == null ? null : c.observedReceipt().toJson()))
        .put("observed_receipt_fingerprint", c.observedReceiptFingerprint())
        .put("observation", c.observation().toJson())
        .build();
  }

  /**
   * An inbox item, described from its envelope (what it is for), with who signed it as {@code
   * verdict} judged it (D30): {@code signer} is the trust root's name for the verifying key, null
   * when it does not verify ({@code signature} then says why, {@code declared_signer} what the
   * payload claims). {@code status} is {@code delivered}, or {@code refused: <reason>} when a
   * worker refused it (the reason a trace event recorded with its nonce).
   */
  public static JsonObject inboxItem(InboxItem item, String refusedReason, InboxVerdict verdict) {
    JsonObject.Builder b =
        JsonObject.builder()
            .put("nonce", item.nonce())
            .put("kind", item.kind().name().toLowerCase(java.util.Locale.ROOT))
            .put("status", refusedReason == null ? "delivered" : "refused: " + refusedReason)
            .put("signer", verdict.signer())
            .put("declared_signer", verdict.declaredSigner())
            .put("signature", verdict.verified() ? "verified" : verdict.refused().wireName());
    try {
      SignedEnvelope env = SignedEnvelope.fromJson(Json.parse(item.envelope()), "inbox");
      if (dev.ratchet.model.ApprovalRejection.isRejection(env.payload())) {
        // An approver's rejection (ADR 0072) travels as an approver decision.
        dev.ratchet.model.ApprovalRejection r =
            dev.ratchet.model.ApprovalRejection.fromJson(env.payload(), "rejection");
        b.put("action_id", r.actionId()).put("decision", "reject").put("reason", r.reason());
      } else if (item.kind() == InboxItem.Kind.APPROVAL) {
        Approval a = Approval.fromJson(env.payload(), "approval");
        b.put("action_id", a.actionId());
      } else if (item.kind() == InboxItem.Kind.CANCEL) {
        // An operator's cancel (ADR 0051) is not a reviewer decision: read it as what it is.
        dev.ratchet.model.CancelRequest c =
            dev.ratchet.model.CancelRequest.fromJson(env.payload(), "cancel");
        b.put("reason", c.reason());
      } else {
        ReviewDecision d = ReviewDecision.fromJson(env.payload(), "decision");
        b.put("case_id", d.caseId()).put("decision", d.decision());
      }
      b.put("key_id", env.keyId()).put("fingerprint", env.fingerprint());
    } catch (RuntimeException e) {
      b.put("unreadable", e.getMessage());
    }
    return b.build();
  }

  /** Who signed an inbox item, for a person: the trusted name, or why there is none. */
  public static String signerText(JsonObject inboxItem) {
    String signer = text(inboxItem, "signer");
    if (!signer.isEmpty()) {
      return signer;
    }
    return "unverified signer ("
        + text(inboxItem, "signature")
        + (text(inboxItem, "declared_signer").isEmpty()
            ? ""
            : ", claims '" + text(inboxItem, "declared_signer") + "'")
        + ")";
  }

  public static JsonObject receipt(Receipt r) {
    return r.toJson().with("fingerprint", new JsonString(r.fingerprint()));
  }

  public static JsonArray array(List<? extends JsonValue> items) {
    return new JsonArray(List.copyOf(items));
  }
}
