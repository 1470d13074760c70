package dev.ratchet.adapters;

import dev.ratchet.adapter.ActionClass;
import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapter.Observation;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.adapter.Verification;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.adapters.internal.HttpCalls;
import dev.ratchet.adapters.internal.ServiceReceipts;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonInt;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.json.Text;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.store.Fence;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An {@link EnvironmentAdapter} for an HTTP service that takes an {@code Idempotency-Key} and keeps
 * the receipts itself (the Ratchet idempotent-HTTP protocol, docs/adapters.md). The service is the
 * authority: it stores one receipt per key, refuses stale fencing tokens and expired approvals on
 * its own clock, and answers {@code GET /v1/receipts/{key}} and {@code GET /v1/state}. This client
 * only checks that what comes back binds what was sent.
 *
 * <p>A transport failure during a write is {@code STORE_UNAVAILABLE}: the outcome is unknown and
 * the runtime must {@link #lookup} the key before anything else — it never retries blindly.
 */
public final class IdempotentHttpAdapter implements EnvironmentAdapter {
  private final String namespace;
  private final Map<String, HttpAction> actions;
  private final HttpCalls http;
  private final int maxRequestBytes;
  private volatile CrashSeam crash;

  private IdempotentHttpAdapter(Builder b) {
    this.namespace = b.namespace;
    this.actions = Collections.unmodifiableMap(new LinkedHashMap<>(b.actions));
    this.http = new HttpCalls(b.base, b.timeout, b.maxResponseBytes, b.clientSecret);
    this.maxRequestBytes = b.maxRequestBytes;
    this.crash = b.crash;
  }

  public static Builder builder(URI base, String namespace) {
    return new Builder(base, namespace);
  }

  /** Replaces the crash seam (tests: fires after the service committed, before returning). */
  public void crashSeam(CrashSeam seam) {
    this.crash = Objects.requireNonNull(seam);
  }

  /** The service's client secret, so the runtime redacts it from evidence (issue 36, D27). */
  @Override
  public java.util.Map<String, byte[]> credentials() {
    return http.credentials();
  }

  @Override
  public String namespace() {
    return namespace;
  }

  @Override
  public int adapterVersion() {
    return 1;
  }

  @Override
  public List<ActionSpec> actionSpecs() {
    return actions.values().stream().map(HttpAction::spec).toList();
  }

  @Override
  public Observation observe() {
    HttpCalls.Response r = http.get("/v1/state");
    requireOk(r, "GET /v1/state");
    try {
      return Observation.fromJson(r.body(), "state");
    } catch (IllegalArgumentException e) {
      throw RatchetException.contract("GET /v1/state: " + e.getMessage());
    }
  }

  @Override
  public AdapterOutcome execute(
      WriteIntent intent, String idempotencyKey, Fence fence, ApprovalBinding approval) {
    if (!namespace.equals(intent.namespace())) {
      throw RatchetException.contract(
          "intent.namespace: '" + intent.namespace() + "' is not '" + namespace + "'");
    }
    Text.require("idempotency_key", idempotencyKey, Receipt.MAX_KEY_LENGTH);
    HttpAction a = action(intent.kind(), ActionClass.WRITE);
    a.spec().validateArguments(intent.arguments(), "intent.arguments");
    byte[] body = Canonical.bytes(intent.arguments());
    if (body.length > maxRequestBytes) {
      throw RatchetException.contract(
          "intent.arguments: "
              + body.length
              + " bytes, over the request limit of "
              + maxRequestBytes);
    }
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Idempotency-Key", idempotencyKey);
    headers.put("Ratchet-Intent-Digest", intent.digest());
    headers.put("Ratchet-Fence-Run", fence.runId());
    headers.put("Ratchet-Fence-Version", Long.toString(fence.leaseVersion()));
    if (approval.approvalFingerprint() != null) {
      headers.put("Ratchet-Approval-Fingerprint", approval.approvalFingerprint());
      headers.put("Ratchet-Approval-Expires-At", Long.toString(approval.expiresAtMs()));
    }
    String what = "POST " + a.pathTemplate();
    HttpCalls.Response r = http.post(a.pathTemplate(), body, headers);
    String error = errorCode(r.body());
    if (r.status() == 201) {
      Receipt receipt = ServiceReceipts.parse(r.body(), namespace, idempotencyKey, what);
      ServiceReceipts.requireExecutedAsSent(
          receipt, intent.digest(), fence, approval.approvalFingerprint(), what);
      crash.reached(CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT);
      return AdapterOutcome.executed(receipt);
    }
    if (r.status() == 200) {
      Receipt receipt = ServiceReceipts.parse(r.body(), namespace, idempotencyKey, what);
      ServiceReceipts.requireDigest(receipt, intent.digest(), what);
      return AdapterOutcome.replayed(receipt);
    }
    if (r.status() == 409 && "idempotency_conflict".equals(error)) {
      Receipt receipt = ServiceReceipts.parse(r.body(), namespace, idempotencyKey, what);
      if (receipt.intentDigest().equals(intent.digest())) {
        throw RatchetException.contract(what + ": a conflict claimed for the very same intent");
      }
      return AdapterOutcome.conflict(receipt);
    }
    throw refusal(r, what);
  }

  @Override
  public Optional<Receipt> lookup(String idempotencyKey) {
    Text.require("idempotency_key", idempotencyKey, Receipt.MAX_KEY_LENGTH);
    String path = "/v1/receipts/" + URLEncoder.encode(idempotencyKey, StandardCharsets.UTF_8);
    HttpCalls.Response r = http.get(path);
    if (r.status() == 404 && "not_found".equals(errorCode(r.body()))) {
      return Optional.empty();
    }
    requireOk(r, "GET /v1/receipts");
    return Optional.of(
        ServiceReceipts.parse(r.body(), namespace, idempotencyKey, "GET /v1/receipts"));
  }

  /** GETs the kind's route. Reads are not fenced at the service: a stale reader changes nothing. */
  @Override
  public JsonObject read(String kind, JsonObject arguments, Fence fence) {
    HttpAction a = action(kind, ActionClass.READ);
    a.spec().validateArguments(arguments, "action.arguments");
    HttpCalls.Response r = http.get(a.path(arguments));
    requireOk(r, "GET " + a.pathTemplate());
    return r.body();
  }

  /**
   * GETs the route and compares the fields named in the verifier, {@code {"expect": {target:
   * {field: value}}}}, with the answer, which must carry the {@code revision} and {@code
   * state_fingerprint} it was read at.
   */
  @Override
  public Verification verify(String kind, JsonObject arguments, JsonObject verifier, Fence fence) {
    HttpAction a = action(kind, ActionClass.VERIFY);
    a.spec().validateArguments(arguments, "action.arguments");
    String target = a.spec().target(arguments);
    JsonObject expect = Fields.exact(verifier, "verifier", "expect").obj("expect");
    JsonObject want =
        Fields.asObject(
            expect
                .get(target)
                .orElseThrow(
                    () ->
                        RatchetException.contract(
                            "verifier.expect: nothing expected of '" + target + "'")),
            "verifier.expect." + target);
    HttpCalls.Response r = http.get(a.path(arguments));
    requireOk(r, "GET " + a.pathTemplate());
    if (!(r.body().get("revision").orElse(null) instanceof JsonInt rev)
        || rev.value() < 0
        || !(r.body().get("state_fingerprint").orElse(null) instanceof JsonString fp)
        || !Text.isHex64(fp.value())) {
      throw RatchetException.contract(
          "GET " + a.pathTemplate() + ": the answer must carry its revision and state_fingerprint");
    }
    long revision = rev.value();
    String fingerprint = fp.value();
    List<JsonValue> mismatches = new ArrayList<>();
    want.members()
        .forEach(
            (field, value) -> {
              if (!value.equals(r.body().get(field).orElse(null))) {
                mismatches.add(new JsonString(field));
              }
            });
    JsonObject detail =
        JsonObject.builder()
            .put("target", target)
            .put("observed", r.body())
            .put("mismatches", new JsonArray(mismatches))
            .build();
    return new Verification(mismatches.isEmpty(), revision, fingerprint, detail);
  }

  private HttpAction action(String kind, ActionClass cls) {
    HttpAction a = actions.get(kind);
    if (a == null || a.spec().actionClass() != cls) {
      throw RatchetException.contract(
          "action.kind: '" + kind + "' is not a " + cls.name().toLowerCase() + " of " + namespace);
    }
    return a;
  }

  private static void requireOk(HttpCalls.Response r, String what) {
    if (r.status() != 200) {
      throw refusal(r, what);
    }
  }

  /** Maps a refusal to its typed error; unknown shapes are the service's contract breach. */
  private static RatchetException refusal(HttpCalls.Response r, String what) {
    String code = errorCode(r.body());
    String msg = what + ": " + r.status() + " " + code + ": " + message(r.body());
    if (r.status() == 409 && "fenced".equals(code)) {
      return new RatchetException(ErrorCode.FENCED, msg);
    }
    if (r.status() == 403 && "approval_expired".equals(code)) {
      return new RatchetException(ErrorCode.APPROVAL, msg);
    }
    if (r.status() >= 500) {
      return new RatchetException(ErrorCode.STORE_UNAVAILABLE, msg);
    }
    return RatchetException.contract(msg);
  }

  private static String errorCode(JsonObject body) {
    return body.get("error").orElse(null) instanceof JsonString s ? s.value() : "";
  }

  private static String message(JsonObject body) {
    return body.get("message").orElse(null) instanceof JsonString s ? s.value() : "";
  }

  /** Configures an adapter: base URI, namespace, action kinds and limits. */
  public static final class Builder {
    private final URI base;
    private final String namespace;
    private final Map<String, HttpAction> actions = new LinkedHashMap<>();
    private Duration timeout = Duration.ofSeconds(10);
    private int maxRequestBytes = 64 * 1024;
    private int maxResponseBytes = 1 << 20;
    private CrashSeam crash = CrashSeam.NONE;
    private String clientSecret;

    private Builder(URI base, String namespace) {
      this.base = Objects.requireNonNull(base, "base");
      this.namespace = Text.require("namespace", namespace);
    }

    public Builder actions(List<HttpAction> list) {
      list.forEach(a -> actions.put(a.kind(), a));
      return this;
    }

    public Builder timeout(Duration t) {
      this.timeout = Objects.requireNonNull(t);
      return this;
    }

    public Builder maxRequestBytes(int n) {
      this.maxRequestBytes = n;
      return this;
    }

    public Builder maxResponseBytes(int n) {
      this.maxResponseBytes = n;
      return this;
    }

    public Builder crashSeam(CrashSeam seam) {
      this.crash = Objects.requireNonNull(seam);
      return this;
    }

    /**
     * The service's client secret, sent as {@code Authorization: Bearer} on every request (the
     * reference service refuses requests without it).
     */
    public Builder clientSecret(String secret) {
      this.clientSecret = Text.require("client secret", secret, 512);
      return this;
    }

    public IdempotentHttpAdapter build() {
      return new IdempotentHttpAdapter(this);
    }
  }
}
