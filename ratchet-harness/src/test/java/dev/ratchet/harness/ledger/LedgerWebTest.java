package dev.ratchet.harness.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.adapter.Receipt;
import dev.ratchet.adapters.Workspaces;
import dev.ratchet.testkit.SeededEntropy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web front end over plain HTTP (the browser adapter's tests drive it in Chromium): it needs
 * the client secret like the JSON API; a keyed form post is the same idempotent write, receipted
 * for namespace {@code browser} and found under the key; a form without a key creates an order
 * nothing can look up under ours; malformed fields are a 400 and change nothing.
 */
class LedgerWebTest {
  private static final String DIGEST = "ab".repeat(32);
  @TempDir Path dir;
  private ReferenceService service;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() {
    service =
        ReferenceService.start(
            dir.resolve("ledger.db"), 0, Workspaces.clock(), new SeededEntropy(11));
  }

  @AfterEach
  void stop() {
    service.close();
  }

  private HttpResponse<String> send(String method, String path, String form, boolean auth)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(service.uri() + path));
    if (auth) {
      b.header("Authorization", "Bearer " + service.clientSecret());
    }
    if (method.equals("POST")) {
      b.header("Content-Type", "application/x-www-form-urlencoded")
          .POST(HttpRequest.BodyPublishers.ofString(form));
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String orderForm(String key, String version) {
    return "sku=sku-1&quantity=2&unit_price_cents=150&idempotency_key="
        + key
        + "&intent_digest="
        + DIGEST
        + "&fence_run=run-1&fence_version="
        + version
        + "&approval_fingerprint=&approval_expires_at=";
  }

  @Test
  void pagesNeedTheClientSecret() throws Exception {
    assertThat(send("GET", "/web/accounts/acct-1", "", false).statusCode()).isEqualTo(401);
    assertThat(
            send("POST", "/web/accounts/acct-1/orders", orderForm("k0", "1"), false).statusCode())
        .isEqualTo(401);
    assertThat(service.orders()).isEmpty();
    HttpResponse<String> page = send("GET", "/web/accounts/acct-1", "", true);
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).contains("id='order'", "name='idempotency_key'", "ratchet-revision");
  }

  @Test
  void aKeyedFormPostIsOneReceiptedWriteUnderTheKey() throws Exception {
    HttpResponse<String> first =
        send("POST", "/web/accounts/acct-1/orders", orderForm("k1", "1"), true);
    assertThat(first.statusCode()).isEqualTo(303);
    assertThat(first.headers().firstValue("Location")).contains("/web/accounts/acct-1");
    assertThat(send("POST", "/web/accounts/acct-1/orders", orderForm("k1", "1"), true).statusCode())
        .isEqualTo(303);
    assertThat(service.orders()).hasSize(1);
    assertThat(service.effects("k1")).isEqualTo(1);
    Receipt r =
        dev.ratchet.adapters.IdempotentHttpAdapter.builder(service.uri(), "browser")
            .clientSecret(service.clientSecret())
            .build()
            .lookup("k1")
            .orElseThrow();
    assertThat(r.namespace()).isEqualTo("browser");
    assertThat(r.intentDigest()).isEqualTo(DIGEST);
  }

  @Test
  void aFormWithoutAKeyCreatesAnOrderNothingFindsUnderOurKey() throws Exception {
    assertThat(
            send(
                    "POST",
                    "/web/accounts/acct-2/quick-orders",
                    "sku=s&quantity=1&unit_price_cents=5",
                    true)
                .statusCode())
        .isEqualTo(303);
    assertThat(service.orders()).hasSize(1);
    assertThat(service.effects("k-none")).isZero();
  }

  @Test
  void malformedFieldsAreA400AndChangeNothing() throws Exception {
    HttpResponse<String> r =
        send("POST", "/web/accounts/acct-3/orders", orderForm("k3", "not-a-number"), true);
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body()).contains("id='error'", "fence_version");
    assertThat(service.orders()).isEmpty();
  }
}
