package dev.ratchet.adapters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.store.Fence;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A service that breaks the protocol — malformed, foreign or contradictory receipts, oversized
 * answers, server errors — gets a typed error from the adapter, never a receipt the runtime would
 * trust.
 */
class MisbehavingServiceTest {
  private final AtomicReference<Canned> canned = new AtomicReference<>();
  private HttpServer server;
  private IdempotentHttpAdapter adapter;
  private final WriteIntent intent = Ledgers.createOrder("acct-1", "s", 1, 100);
  private final Fence fence = new Fence("run-1", "worker", 1);

  record Canned(int status, String body) {}

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        ex -> {
          try (ex) {
            ex.getRequestBody().readAllBytes();
            Canned c = canned.get();
            byte[] b = c.body().getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(c.status(), b.length);
            try (OutputStream out = ex.getResponseBody()) {
              out.write(b);
            }
          }
        });
    server.start();
    adapter =
        IdempotentHttpAdapter.builder(
                URI.create("http://127.0.0.1:" + server.getAddress().getPort()),
                LedgerApi.NAMESPACE)
            .actions(LedgerApi.actions())
            .maxResponseBytes(4096)
            .build();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private Receipt receipt(String namespace, String key, String digest, long fenceVersion) {
    return new Receipt(
        namespace,
        1,
        "rcpt_1",
        key,
        digest,
        JsonObject.builder().put("order_id", "o").build(),
        0,
        1,
        "0".repeat(64),
        "1".repeat(64),
        5,
        "run-1",
        fenceVersion,
        null,
        "o");
  }

  private void answer(int status, Receipt r) {
    canned.set(
        new Canned(
            status, Canonical.string(JsonObject.builder().put("receipt", r.toJson()).build())));
  }

  private void refusedWith(ErrorCode code, ThrowingCallable call) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(RatchetException.class, e -> assertThat(e.code()).isEqualTo(code));
  }

  private void executeRefusedWith(ErrorCode code) {
    refusedWith(code, () -> adapter.execute(intent, "k1", fence, ApprovalBinding.NONE));
  }

  @Test
  void aReceiptForAnotherKeyIsRefused() {
    answer(201, receipt("ledger", "k-other", intent.digest(), 1));
    executeRefusedWith(ErrorCode.CONTRACT);
    refusedWith(ErrorCode.CONTRACT, () -> adapter.lookup("k1"));
  }

  @Test
  void aReceiptOfAnotherNamespaceIsRefused() {
    answer(201, receipt("elsewhere", "k1", intent.digest(), 1));
    executeRefusedWith(ErrorCode.CONTRACT);
    answer(200, receipt("elsewhere", "k1", intent.digest(), 1));
    refusedWith(ErrorCode.CONTRACT, () -> adapter.lookup("k1"));
  }

  @Test
  void successForAnotherIntentOrFenceIsRefused() {
    answer(201, receipt("ledger", "k1", "b".repeat(64), 1));
    executeRefusedWith(ErrorCode.CONTRACT);
    answer(200, receipt("ledger", "k1", "b".repeat(64), 1));
    executeRefusedWith(ErrorCode.CONTRACT);
    answer(201, receipt("ledger", "k1", intent.digest(), 7));
    executeRefusedWith(ErrorCode.CONTRACT);
  }

  @Test
  void aConflictClaimedForTheSameIntentIsRefused() {
    Receipt same = receipt("ledger", "k1", intent.digest(), 1);
    canned.set(
        new Canned(
            409,
            Canonical.string(
                JsonObject.builder()
                    .put("error", "idempotency_conflict")
                    .put("receipt", same.toJson())
                    .build())));
    executeRefusedWith(ErrorCode.CONTRACT);
  }

  @Test
  void malformedBodiesAreRefused() {
    for (String body :
        new String[] {
          "not json",
          "[1,2]",
          "{\"receipt\": {\"namespace\": \"ledger\"}}",
          "{\"receipt\": 1}",
          "{\"a\":1,\"a\":2}"
        }) {
      canned.set(new Canned(201, body));
      executeRefusedWith(ErrorCode.CONTRACT);
    }
    canned.set(new Canned(200, "{\"instance_id\": \"x\"}"));
    refusedWith(ErrorCode.CONTRACT, adapter::observe);
  }

  @Test
  void anOversizedAnswerIsRefused() {
    canned.set(new Canned(200, "{\"pad\": \"" + "x".repeat(5000) + "\"}"));
    refusedWith(ErrorCode.CONTRACT, () -> adapter.lookup("k1"));
  }

  @Test
  void serverErrorsAreUnavailableAndUnknownStatusesAreContractBreaches() {
    canned.set(new Canned(500, "{\"error\": \"boom\"}"));
    executeRefusedWith(ErrorCode.STORE_UNAVAILABLE);
    canned.set(new Canned(418, "{\"error\": \"teapot\"}"));
    executeRefusedWith(ErrorCode.CONTRACT);
  }
}
