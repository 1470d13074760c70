package dev.ratchet.harness.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.Observation;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.adapter.Verification;
import dev.ratchet.adapters.IdempotentHttpAdapter;
import dev.ratchet.adapters.LedgerApi;
import dev.ratchet.adapters.Ledgers;
import dev.ratchet.adapters.Workspaces;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import dev.ratchet.store.Fence;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.SeededEntropy;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Stripe-like semantics of the reference service, through the adapter and over raw HTTP. */
class ReferenceServiceTest {
  @TempDir Path dir;
  final ManualClock clock = Workspaces.clock();
  ReferenceService service;
  IdempotentHttpAdapter adapter;

  @BeforeEach
  void start() {
    service = ReferenceService.start(dir.resolve("ledger.db"), 0, clock, new SeededEntropy(3));
    adapter = service.adapter();
  }

  @AfterEach
  void stop() {
    service.close();
  }

  static Fence fence(String run, long v) {
    return new Fence(run, "worker", v);
  }

  @Test
  void sameKeyAndBodyReturnsTheStoredResponseAndAnotherBodyIs409WithTheReceipt() throws Exception {
    Receipt r =
        adapter
            .execute(
                Ledgers.createOrder("acct-1", "sku", 1, 100),
                "k1",
                fence("r", 1),
                ApprovalBinding.NONE)
            .receipt();
    HttpResponse<String> again = post("k1", Ledgers.createOrder("acct-1", "sku", 1, 100));
    assertThat(again.statusCode()).isEqualTo(200);
    assertThat(again.headers().firstValue("Idempotent-Replayed")).contains("true");
    assertThat(receiptOf(again.body())).isEqualTo(r);
    HttpResponse<String> other = post("k1", Ledgers.createOrder("acct-1", "sku", 2, 100));
    assertThat(other.statusCode()).isEqualTo(409);
    assertThat(Json.parse(other.body()).toString()).contains("idempotency_conflict");
    assertThat(receiptOf(other.body())).isEqualTo(r);
    assertThat(service.orders()).hasSize(1);
  }

  @Test
  void aLostResponseIsFoundByLookupAndNeverExecutedAgain() {
    service.loseNextResponses(1);
    var intent = Ledgers.createOrder("acct-1", "sku", 1, 100);
    assertThatThrownBy(() -> adapter.execute(intent, "k1", fence("r", 1), ApprovalBinding.NONE))
        .isInstanceOfSatisfying(
            RatchetException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE));
    assertThat(service.effects("k1")).isEqualTo(1);
    Receipt found = adapter.lookup("k1").orElseThrow();
    assertThat(found.intentDigest()).isEqualTo(intent.digest());
    assertThat(adapter.execute(intent, "k1", fence("r", 1), ApprovalBinding.NONE).kind())
        .isEqualTo(AdapterOutcome.Kind.REPLAYED);
    assertThat(service.effects("k1")).isEqualTo(1);
  }

  @Test
  void aFenceOlderThanTheNewestForTheRunIsRefusedOnAnyAccount() {
    adapter.execute(
        Ledgers.createOrder("acct-1", "s", 1, 1), "k1", fence("r", 3), ApprovalBinding.NONE);
    for (String account : new String[] {"acct-1", "acct-2"}) {
      assertThatThrownBy(
              () ->
                  adapter.execute(
                      Ledgers.createOrder(account, "s", 1, 1),
                      "k-" + account,
                      fence("r", 2),
                      ApprovalBinding.NONE))
          .isInstanceOfSatisfying(
              RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.FENCED));
    }
    // Another run keeps its own tokens.
    adapter.execute(
        Ledgers.createOrder("acct-1", "s", 1, 1), "k2", fence("other", 1), ApprovalBinding.NONE);
    assertThat(service.orders()).hasSize(2);
  }

  @Test
  void anApprovalPastItsExpiryIsRefusedOnTheServiceClock() {
    ApprovalBinding a = new ApprovalBinding("e".repeat(64), clock.millis() + 1000);
    clock.advance(Duration.ofMillis(1000));
    assertThatThrownBy(
            () -> adapter.execute(Ledgers.createOrder("acct-1", "s", 1, 1), "k1", fence("r", 1), a))
        .isInstanceOfSatisfying(
            RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.APPROVAL));
    assertThat(service.orders()).isEmpty();
  }

  @Test
  void paymentsSettleAnOrderAndTheVerifierBindsTheRevision() {
    Receipt order =
        adapter
            .execute(
                Ledgers.createOrder("acct-1", "sku", 2, 1250),
                "k1",
                fence("r", 1),
                ApprovalBinding.NONE)
            .receipt();
    String orderId = order.businessId();
    assertThat(orderId).isEqualTo("ord_000001");
    assertThatThrownBy(
            () ->
                adapter.execute(
                    Ledgers.payOrder("acct-1", orderId, 999),
                    "k2",
                    fence("r", 1),
                    ApprovalBinding.NONE))
        .isInstanceOfSatisfying(
            RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONTRACT));
    assertThatThrownBy(
            () ->
                adapter.execute(
                    Ledgers.payOrder("acct-2", orderId, 2500),
                    "k3",
                    fence("r", 1),
                    ApprovalBinding.NONE))
        .isInstanceOfSatisfying(
            RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONTRACT));
    Receipt paid =
        adapter
            .execute(
                Ledgers.payOrder("acct-1", orderId, 2500),
                "k4",
                fence("r", 1),
                ApprovalBinding.NONE)
            .receipt();
    assertThat(paid.businessId()).isEqualTo(orderId);
    JsonObject expect =
        JsonObject.builder()
            .put(
                "expect",
                JsonObject.builder()
                    .put(
                        "acct-1",
                        JsonObject.builder().put("orders", 1).put("paid_cents", 2500).build())
                    .build())
            .build();
    Verification v =
        adapter.verify("check_account", Ledgers.account("acct-1"), expect, fence("r", 1));
    Observation live = adapter.observe();
    assertThat(v.passed()).isTrue();
    assertThat(v.revision()).isEqualTo(live.revision()).isEqualTo(2);
    assertThat(v.stateFingerprint()).isEqualTo(live.stateFingerprint());
    JsonObject read =
        adapter.read(
            "get_order",
            JsonObject.builder().put("account", "acct-1").put("order_id", orderId).build(),
            fence("r", 1));
    assertThat(read.get("status").orElseThrow().toString()).isEqualTo("\"paid\"");
  }

  @Test
  void theLedgerAndItsTokensSurviveARestart() {
    Observation before = adapter.observe();
    Receipt r =
        adapter
            .execute(
                Ledgers.createOrder("acct-1", "s", 1, 1), "k1", fence("r", 5), ApprovalBinding.NONE)
            .receipt();
    service.close();
    service = ReferenceService.start(dir.resolve("ledger.db"), 0, clock, new SeededEntropy(4));
    adapter = service.adapter();
    assertThat(adapter.observe().instanceId()).isEqualTo(before.instanceId());
    assertThat(adapter.lookup("k1")).contains(r);
    assertThatThrownBy(
            () ->
                adapter.execute(
                    Ledgers.createOrder("acct-1", "s", 1, 1),
                    "k2",
                    fence("r", 4),
                    ApprovalBinding.NONE))
        .isInstanceOfSatisfying(
            RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.FENCED));
  }

  @Test
  void oversizedAndMalformedRequestsChangeNothing() throws Exception {
    Observation before = adapter.observe();
    HttpResponse<String> big = post("k1", "{\"x\":\"" + "y".repeat(70_000) + "\"}", "create_order");
    assertThat(big.statusCode()).isEqualTo(413);
    HttpResponse<String> bad = post("k1", "{\"account\":\"a\",\"account\":\"b\"}", "create_order");
    assertThat(bad.statusCode()).isEqualTo(400);
    IdempotentHttpAdapter small =
        IdempotentHttpAdapter.builder(service.uri(), LedgerApi.NAMESPACE)
            .actions(LedgerApi.actions())
            .clientSecret(service.clientSecret())
            .maxRequestBytes(50)
            .build();
    assertThatThrownBy(
            () ->
                small.execute(
                    Ledgers.createOrder("acct-1", "s".repeat(60), 1, 1),
                    "k1",
                    fence("r", 1),
                    ApprovalBinding.NONE))
        .isInstanceOfSatisfying(
            RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONTRACT));
    assertThatThrownBy(
            () ->
                adapter.execute(
                    Ledgers.createOrder("acct 1/..", "s", 1, 1),
                    "k1",
                    fence("r", 1),
                    ApprovalBinding.NONE))
        .isInstanceOfSatisfying(
            RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONTRACT));
    assertThat(adapter.observe()).isEqualTo(before);
    assertThat(adapter.lookup("k1")).isEmpty();
  }

  @Test
  void anUnreachableServiceIsUnavailableNotAnAnswer() {
    URI gone = service.uri();
    service.close();
    IdempotentHttpAdapter a =
        IdempotentHttpAdapter.builder(gone, LedgerApi.NAMESPACE)
            .actions(LedgerApi.actions())
            .clientSecret(service.clientSecret())
            .timeout(Duration.ofSeconds(2))
            .build();
    assertThatThrownBy(a::observe)
        .isInstanceOfSatisfying(
            RatchetException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE));
    assertThatThrownBy(() -> a.lookup("k1"))
        .isInstanceOfSatisfying(
            RatchetException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE));
    service = ReferenceService.start(dir.resolve("other.db"), 0, clock, new SeededEntropy(5));
  }

  private HttpResponse<String> post(String key, dev.ratchet.adapter.WriteIntent intent)
      throws IOException, InterruptedException {
    return post(key, Canonical.string(intent.arguments()), intent.digest());
  }

  private HttpResponse<String> post(String key, String body, String digestOrKind)
      throws IOException, InterruptedException {
    String digest = digestOrKind.length() == 64 ? digestOrKind : "a".repeat(64);
    HttpRequest req =
        HttpRequest.newBuilder(URI.create(service.uri() + "/v1/orders"))
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .header("Idempotency-Key", key)
            .header("Ratchet-Intent-Digest", digest)
            .header("Ratchet-Fence-Run", "r")
            .header("Ratchet-Fence-Version", "1")
            .header("Authorization", "Bearer " + service.clientSecret())
            .build();
    return HttpClient.newHttpClient().send(req, HttpResponse.BodyHandlers.ofString());
  }

  private static Receipt receiptOf(String body) {
    return Receipt.fromJson(
        ((JsonObject) Json.parse(body)).get("receipt").orElseThrow(), "receipt");
  }
}
