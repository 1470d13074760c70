package dev.ratchet.browser;

import dev.ratchet.adapter.ActionClass;
import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.adapters.HttpAction;
import dev.ratchet.harness.ledger.ReferenceService;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.seam.CrashSeam;
import java.util.List;

/** The reference service's web front end as the browser adapter's tests drive it. */
final class WebLedger {
  private WebLedger() {}

  static BrowserAdapter adapter(ReferenceService service, CrashSeam seam) {
    return adapter(service.uri(), service.clientSecret(), seam);
  }

  static BrowserAdapter adapter(java.net.URI uri, String secret, CrashSeam seam) {
    return BrowserAdapter.builder(uri)
        .pathPrefix("/web/accounts/")
        .form(new PageForm("order", "place-order", true))
        .form(new PageForm("pay", "pay-button", true))
        .form(new PageForm("quick-order", "quick-order-button", false))
        .verification(
            HttpAction.get(
                ActionSpec.of(
                    "check_account",
                    ActionClass.VERIFY,
                    "browser.verify",
                    "read_only",
                    (a, p) -> {},
                    a -> ((JsonString) a.get("account").orElseThrow()).value()),
                "/v1/accounts/{account}"))
        .clientSecret(secret)
        .crashSeam(seam)
        .build();
  }

  static JsonObject order(String account, String sku, long quantity, long price) {
    return JsonObject.builder()
        .put("path", "/web/accounts/" + account)
        .put("form", "order")
        .put(
            "fields",
            JsonObject.builder()
                .put("sku", sku)
                .put("quantity", Long.toString(quantity))
                .put("unit_price_cents", Long.toString(price))
                .build())
        .build();
  }

  static WriteIntent orderIntent(String account, String sku, long quantity, long price) {
    return new WriteIntent(
        BrowserAdapter.NAMESPACE,
        "fill_and_submit",
        order(account, sku, quantity, price),
        "irreversible_write");
  }

  static WriteIntent payIntent(String account, String orderId, long amount) {
    return new WriteIntent(
        BrowserAdapter.NAMESPACE,
        "fill_and_submit",
        JsonObject.builder()
            .put("path", "/web/accounts/" + account)
            .put("form", "pay")
            .put(
                "fields",
                JsonObject.builder()
                    .put("order_id", orderId)
                    .put("amount_cents", Long.toString(amount))
                    .build())
            .build(),
        "irreversible_write");
  }

  /** Orders of {@code account} in the service's own ledger. */
  static long orders(ReferenceService service, String account) {
    return service.orders().stream()
        .filter(o -> o.get("account").orElseThrow().equals(new JsonString(account)))
        .count();
  }

  /** SIGKILL of every Chromium process this JVM started (found by the host, not the adapter). */
  static int killChromium() {
    List<ProcessHandle> chromes = chromium();
    chromes.forEach(ProcessHandle::destroyForcibly);
    return chromes.size();
  }

  /** SIGSTOP of every Chromium process this JVM started: a browser that hangs. */
  static int stopChromium() {
    List<ProcessHandle> chromes = chromium();
    for (ProcessHandle h : chromes) {
      try {
        new ProcessBuilder("kill", "-STOP", Long.toString(h.pid())).start().waitFor();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return chromes.size();
  }

  private static List<ProcessHandle> chromium() {
    return ProcessHandle.current()
        .descendants()
        .filter(h -> cmdline(h.pid()).startsWith("/usr/lib/chromium/chromium"))
        .toList();
  }

  private static String cmdline(long pid) {
    try {
      return new String(
          java.nio.file.Files.readAllBytes(java.nio.file.Path.of("/proc/" + pid + "/cmdline")),
          java.nio.charset.StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      return "";
    }
  }
}
