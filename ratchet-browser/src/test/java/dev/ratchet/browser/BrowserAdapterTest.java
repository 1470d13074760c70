package dev.ratchet.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.harness.ledger.ReferenceService;
import dev.ratchet.json.JsonObject;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.store.Fence;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.SeededEntropy;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The browser adapter in real headless Chromium against the reference service's web front end on
 * loopback: the receipt comes from the service under the runtime's key, a replay never clicks, a
 * browser killed mid-write is replaced and the write answered from the service's receipt, and a
 * form without key fields is an unreceipted effect.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BrowserAdapterTest {
  private Path dir;
  private ReferenceService service;
  private BrowserAdapter adapter;
  private final Fence fence = new Fence("run-1", "worker-1", 1);

  @BeforeAll
  void start() throws java.io.IOException {
    dir = java.nio.file.Files.createTempDirectory("ratchet-browser-test");
    service =
        ReferenceService.start(
            dir.resolve("ledger.db"),
            0,
            new ManualClock(Instant.parse("2026-12-06T09:00:00Z")),
            new SeededEntropy(7));
    adapter = WebLedger.adapter(service, CrashSeam.NONE);
  }

  @AfterAll
  void stop() {
    adapter.close();
    service.close();
  }

  @Test
  void aPageWriteIsReceiptedByTheServiceUnderTheRuntimesKey() {
    WriteIntent order = WebLedger.orderIntent("acct-a", "sku-1", 2, 150);
    AdapterOutcome out = adapter.execute(order, "key-a1", fence, ApprovalBinding.NONE);
    assertThat(out.kind()).isEqualTo(AdapterOutcome.Kind.EXECUTED);
    Receipt r = out.receipt();
    assertThat(r.namespace()).isEqualTo(BrowserAdapter.NAMESPACE);
    assertThat(r.idempotencyKey()).isEqualTo("key-a1");
    assertThat(r.intentDigest()).isEqualTo(order.digest());
    assertThat(r.fenceRunId()).isEqualTo("run-1");
    assertThat(adapter.lookup("key-a1")).contains(r);
    assertThat(WebLedger.orders(service, "acct-a")).isEqualTo(1);
    assertThat(service.effects("key-a1")).isEqualTo(1);
  }

  @Test
  void theSameKeyAndIntentReuseTheReceiptAndAnotherIntentConflicts() {
    WriteIntent order = WebLedger.orderIntent("acct-b", "sku-1", 1, 100);
    Receipt first = adapter.execute(order, "key-b1", fence, ApprovalBinding.NONE).receipt();
    AdapterOutcome again = adapter.execute(order, "key-b1", fence, ApprovalBinding.NONE);
    assertThat(again.kind()).isEqualTo(AdapterOutcome.Kind.REPLAYED);
    assertThat(again.receipt()).isEqualTo(first);
    WriteIntent other = WebLedger.orderIntent("acct-b", "sku-2", 1, 100);
    assertThat(adapter.execute(other, "key-b1", fence, ApprovalBinding.NONE).kind())
        .isEqualTo(AdapterOutcome.Kind.CONFLICT);
    assertThat(WebLedger.orders(service, "acct-b")).isEqualTo(1);
  }

  @Test
  void aStaleFenceIsRefusedByTheServiceBehindThePage() {
    adapter.execute(
        WebLedger.orderIntent("acct-c", "sku-1", 1, 100),
        "key-c1",
        new Fence("run-c", "w", 5),
        ApprovalBinding.NONE);
    assertThatThrownBy(
            () ->
                adapter.execute(
                    WebLedger.orderIntent("acct-c", "sku-2", 1, 100),
                    "key-c2",
                    new Fence("run-c", "w", 4),
                    ApprovalBinding.NONE))
        .isInstanceOfSatisfying(
            RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.FENCED));
    assertThat(WebLedger.orders(service, "acct-c")).isEqualTo(1);
  }

  /**
   * A late result: worker-1 looked the key up (no receipt) and filled the form, and while its click
   * is in flight its lease expires and worker-2, the newer holder, writes for the run at the
   * service. The click then reaches the service with the old fence and is refused there.
   */
  @Test
  void aClickInFlightWhenANewerLeaseHolderWroteIsRefusedByTheServicesFence() {
    java.util.concurrent.atomic.AtomicInteger newer =
        new java.util.concurrent.atomic.AtomicInteger();
    adapter.beforeClick(
        () -> {
          if (newer.getAndIncrement() == 0) {
            AdapterOutcome second =
                service
                    .adapter()
                    .execute(
                        new WriteIntent(
                            dev.ratchet.adapters.LedgerApi.NAMESPACE,
                            dev.ratchet.adapters.LedgerApi.CREATE_ORDER,
                            JsonObject.builder()
                                .put("account", "acct-l")
                                .put("sku", "sku-2")
                                .put("quantity", 1)
                                .put("unit_price_cents", 100)
                                .build(),
                            "irreversible_write"),
                        "key-l2",
                        new Fence("run-l", "worker-2", 2),
                        ApprovalBinding.NONE);
            assertThat(second.kind()).isEqualTo(AdapterOutcome.Kind.EXECUTED);
          }
        });
    try {
      assertThatThrownBy(
              () ->
                  adapter.execute(
                      WebLedger.orderIntent("acct-l", "sku-1", 1, 100),
                      "key-l1",
                      new Fence("run-l", "worker-1", 1),
                      ApprovalBinding.NONE))
          .isInstanceOfSatisfying(
              RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.FENCED));
    } finally {
      adapter.beforeClick(() -> {});
    }
    assertThat(newer.get()).isEqualTo(1); // the click was in flight, after the lookup
    assertThat(adapter.lookup("key-l1")).isEmpty();
    assertThat(service.effects("key-l1")).isZero();
    assertThat(WebLedger.orders(service, "acct-l")).isEqualTo(1); // the newer holder's only
  }

  @Test
  void anOrderIsPaidThroughThePayFormOnceAndASecondPaymentIsRefusedByTheService() {
    Receipt order =
        adapter
            .execute(
                WebLedger.orderIntent("acct-p", "sku-1", 2, 150),
                "key-p1",
                fence,
                ApprovalBinding.NONE)
            .receipt();
    String orderId = order.businessId();
    AdapterOutcome paid =
        adapter.execute(
            WebLedger.payIntent("acct-p", orderId, 300), "key-p2", fence, ApprovalBinding.NONE);
    assertThat(paid.kind()).isEqualTo(AdapterOutcome.Kind.EXECUTED);
    assertThat(paid.receipt().result().get("order_status").orElseThrow().toString())
        .contains("paid");
    assertThatThrownBy(
            () ->
                adapter.execute(
                    WebLedger.payIntent("acct-p", orderId, 300),
                    "key-p3",
                    fence,
                    ApprovalBinding.NONE))
        .isInstanceOfSatisfying(
            RatchetException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.CONTRACT);
              assertThat(e.getMessage()).contains("order_not_open");
            });
    assertThat(adapter.lookup("key-p3")).isEmpty();
  }

  @Test
  void anApprovalExpiredOnTheServicesClockIsRefusedBehindThePage() {
    ApprovalBinding expired =
        new ApprovalBinding("ab".repeat(32), Instant.parse("2026-12-06T08:59:59Z").toEpochMilli());
    assertThatThrownBy(
            () ->
                adapter.execute(
                    WebLedger.orderIntent("acct-g", "sku-1", 1, 100), "key-g1", fence, expired))
        .isInstanceOfSatisfying(
            RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.APPROVAL));
    assertThat(WebLedger.orders(service, "acct-g")).isZero();
    assertThat(adapter.lookup("key-g1")).isEmpty();
  }

  @Test
  void chromiumKilledMidWriteIsReplacedAndTheWriteAnsweredFromTheServiceReceipt() {
    AtomicInteger killed = new AtomicInteger();
    service.crashSeam(
        p -> {
          if (p == CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT && killed.get() == 0) {
            killed.set(WebLedger.killChromium()); // after the commit, before the page's answer
          }
        });
    try {
      WriteIntent order = WebLedger.orderIntent("acct-d", "sku-1", 1, 100);
      AdapterOutcome out = adapter.execute(order, "key-d1", fence, ApprovalBinding.NONE);
      assertThat(killed.get()).isPositive();
      assertThat(out.kind()).isEqualTo(AdapterOutcome.Kind.EXECUTED);
      assertThat(out.receipt()).isEqualTo(adapter.lookup("key-d1").orElseThrow());
      assertThat(WebLedger.orders(service, "acct-d")).isEqualTo(1);
    } finally {
      service.crashSeam(CrashSeam.NONE);
    }
    // The next write runs in a fresh browser.
    adapter.execute(
        WebLedger.orderIntent("acct-d", "sku-2", 1, 100), "key-d2", fence, ApprovalBinding.NONE);
    assertThat(WebLedger.orders(service, "acct-d")).isEqualTo(2);
  }

  @Test
  void aFormWithoutTheServicesKeyIsAnUnreceiptedWrite() {
    WriteIntent quick =
        new WriteIntent(
            BrowserAdapter.NAMESPACE,
            "fill_and_submit_unreceipted",
            JsonObject.builder()
                .put("path", "/web/accounts/acct-e")
                .put("form", "quick-order")
                .put(
                    "fields",
                    JsonObject.builder()
                        .put("sku", "sku-1")
                        .put("quantity", "1")
                        .put("unit_price_cents", "100")
                        .build())
                .build(),
            "irreversible_write");
    AdapterOutcome out = adapter.execute(quick, "key-e1", fence, ApprovalBinding.NONE);
    assertThat(out.kind()).isEqualTo(AdapterOutcome.Kind.EXECUTED);
    assertThat(adapter.lookup("key-e1")).isEmpty(); // the service knows nothing under our key
    assertThat(WebLedger.orders(service, "acct-e")).isEqualTo(1);
    assertThat(
            adapter.actionSpecs().stream()
                .filter(s -> s.kind().equals("fill_and_submit_unreceipted"))
                .findFirst()
                .orElseThrow()
                .effectKind())
        .isEqualTo(dev.ratchet.adapter.EffectKind.UNRECEIPTED);
    // A receipted kind on that form is refused: its service cannot receipt under our key.
    WriteIntent asReceipted =
        new WriteIntent(
            BrowserAdapter.NAMESPACE, "fill_and_submit", quick.arguments(), "irreversible_write");
    assertThatThrownBy(() -> adapter.execute(asReceipted, "key-e2", fence, ApprovalBinding.NONE))
        .isInstanceOfSatisfying(
            RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONTRACT));
    assertThat(WebLedger.orders(service, "acct-e")).isEqualTo(1);
  }

  @Test
  void aFormTheTaskDoesNotAllowIsPermissionDenied() {
    WriteIntent w =
        new WriteIntent(
            BrowserAdapter.NAMESPACE,
            "fill_and_submit",
            JsonObject.builder()
                .put("path", "/web/accounts/acct-f")
                .put("form", "delete-account")
                .put("fields", JsonObject.EMPTY)
                .build(),
            "irreversible_write");
    assertThatThrownBy(() -> adapter.execute(w, "key-f1", fence, ApprovalBinding.NONE))
        .isInstanceOfSatisfying(
            RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.PERMISSION));
  }
}
