package dev.ratchet.harness.ledger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.ratchet.adapters.LedgerApi;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.json.Text;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The reference service's web front end (docs/browser.md): plain HTML over the same ledger, for the
 * browser adapter's tests and demos. {@code GET /web/accounts/{account}} shows the account, its
 * orders and two forms, {@code order} and {@code pay}, each carrying the hidden key fields ({@code
 * idempotency_key}, {@code intent_digest}, {@code fence_run}, {@code fence_version}, {@code
 * approval_fingerprint}, {@code approval_expires_at}) that the adapter fills: a form post is then
 * the same idempotent, fenced write as {@code POST /v1/orders}, receipted under the runtime's key
 * for namespace {@code browser}. A third form, {@code quick-order}, has no key fields: the service
 * mints its own key, so nothing can be looked up under ours (an unreceipted effect, D23). Every
 * request needs the client secret as a bearer token, like the JSON API; the adapter adds it by
 * request interception. A write answers 303 to the account page; a refusal is a page whose {@code
 * #error} carries the code in {@code data-code}.
 */
final class LedgerWeb implements HttpHandler {
  static final String RECEIPT_NAMESPACE = "browser";
  private static final int MAX_FORM = 16 * 1024;

  private final LedgerStore store;
  private final byte[] expectedAuthorization;
  private volatile dev.ratchet.seam.CrashSeam crash = dev.ratchet.seam.CrashSeam.NONE;

  LedgerWeb(LedgerStore store, String clientSecret) {
    this.store = store;
    this.expectedAuthorization = ("Bearer " + clientSecret).getBytes(StandardCharsets.UTF_8);
  }

  /** Reached after a form write committed, before the page's answer (as the JSON API does). */
  void crashSeam(dev.ratchet.seam.CrashSeam seam) {
    this.crash = seam;
  }

  @Override
  public void handle(HttpExchange ex) throws IOException {
    try (ex) {
      String given = ex.getRequestHeaders().getFirst("Authorization");
      if (given == null
          || !MessageDigest.isEqual(
              given.getBytes(StandardCharsets.UTF_8), expectedAuthorization)) {
        send(ex, 401, LedgerPages.error("unauthorized", "a valid client secret is required"));
        return;
      }
      String[] seg = ex.getRequestURI().getRawPath().substring(1).split("/", -1);
      if (seg.length < 3 || !seg[0].equals("web") || !seg[1].equals("accounts")) {
        send(ex, 404, LedgerPages.error("not_found", "no such page"));
        return;
      }
      String account = Text.require("account", URLDecoder.decode(seg[2], StandardCharsets.UTF_8));
      try {
        if (ex.getRequestMethod().equals("GET") && seg.length == 3) {
          send(ex, 200, LedgerPages.account(account, store));
        } else if (ex.getRequestMethod().equals("POST") && seg.length == 4) {
          post(ex, account, seg[3]);
        } else {
          send(ex, 404, LedgerPages.error("not_found", "no such page"));
        }
      } catch (RatchetException | IllegalArgumentException e) {
        send(ex, 400, LedgerPages.error("invalid_request", e.getMessage()));
      }
    }
  }

  private void post(HttpExchange ex, String account, String what) throws IOException {
    Map<String, String> form = form(ex);
    boolean keyed = !what.equals("quick-orders");
    JsonObject body;
    String kind;
    if (what.equals("orders") || what.equals("quick-orders")) {
      kind = LedgerApi.CREATE_ORDER;
      body =
          JsonObject.builder()
              .put("account", account)
              .put("sku", field(form, "sku"))
              .put("quantity", number(form, "quantity"))
              .put("unit_price_cents", number(form, "unit_price_cents"))
              .build();
    } else if (what.equals("payments")) {
      kind = LedgerApi.PAY_ORDER;
      body =
          JsonObject.builder()
              .put("account", account)
              .put("order_id", field(form, "order_id"))
              .put("amount_cents", number(form, "amount_cents"))
              .build();
    } else {
      send(ex, 404, LedgerPages.error("not_found", "no such form"));
      return;
    }
    LedgerApi.validate(kind, body, "form");
    String path = "/web/accounts/" + what;
    Reply r =
        store.write(
            keyed ? keyed(form, kind, path, body) : unkeyed(kind, path, body), RECEIPT_NAMESPACE);
    if (r.status() == 201) {
      crash.reached(dev.ratchet.seam.CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT);
    }
    if (r.status() == 200 || r.status() == 201) {
      ex.getResponseHeaders()
          .set("Location", "/web/accounts/" + URLEncoder.encode(account, StandardCharsets.UTF_8));
      ex.sendResponseHeaders(303, -1);
      return;
    }
    String code = r.body().get("error").orElse(null) instanceof JsonString s ? s.value() : "";
    String msg = r.body().get("message").orElse(null) instanceof JsonString s ? s.value() : "";
    send(ex, r.status(), LedgerPages.error(code, msg));
  }

  private static LedgerWrite keyed(
      Map<String, String> form, String kind, String path, JsonObject body) {
    String approval = form.getOrDefault("approval_fingerprint", "");
    String expires = form.getOrDefault("approval_expires_at", "");
    if (approval.isEmpty() != expires.isEmpty()) {
      throw RatchetException.contract("approval fields: fingerprint and expiry come together");
    }
    return new LedgerWrite(
        kind,
        path,
        Text.require("idempotency_key", form.get("idempotency_key"), 200),
        Text.requireHex64("intent_digest", form.get("intent_digest")),
        Text.require("fence_run", form.get("fence_run")),
        parse("fence_version", form.get("fence_version"), 1),
        approval.isEmpty() ? null : Text.requireHex64("approval_fingerprint", approval),
        expires.isEmpty() ? null : parse("approval_expires_at", expires, 0),
        body);
  }

  /** A page write without our key: the service mints one, as a site without idempotency would. */
  private LedgerWrite unkeyed(String kind, String path, JsonObject body) {
    long next =
        ((dev.ratchet.json.JsonInt) store.state().get("revision").orElseThrow()).value() + 1;
    String digest = Canonical.sha256Hex(body);
    return new LedgerWrite(
        kind,
        path,
        "web-" + next + "-" + digest.substring(0, 12),
        digest,
        "web",
        1,
        null,
        null,
        body);
  }

  private static Map<String, String> form(HttpExchange ex) throws IOException {
    byte[] raw = ex.getRequestBody().readNBytes(MAX_FORM + 1);
    if (raw.length > MAX_FORM) {
      throw RatchetException.contract("form: over " + MAX_FORM + " bytes");
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (String pair : new String(raw, StandardCharsets.UTF_8).split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      if (out.put(k, v) != null) {
        throw RatchetException.contract("form." + k + ": given twice");
      }
    }
    return out;
  }

  private static String field(Map<String, String> form, String name) {
    return Text.require("form." + name, form.get(name));
  }

  private static JsonValue number(Map<String, String> form, String name) {
    return new dev.ratchet.json.JsonInt(parse("form." + name, form.get(name), 0));
  }

  private static long parse(String name, String v, long min) {
    try {
      long n = Long.parseLong(v == null ? "" : v);
      if (n >= min && n <= LedgerHttp.MAX_HEADER_INTEGER) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw RatchetException.contract(name + ": must be an integer from " + min);
  }

  private static void send(HttpExchange ex, int status, String html) throws IOException {
    byte[] b = html.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
    ex.getResponseHeaders()
        .set("Content-Security-Policy", "default-src 'self'; form-action 'self'");
    ex.sendResponseHeaders(status, b.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(b);
    }
  }
}
