package dev.ratchet.harness.ledger;

import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;

/** The web front end's pages (plain HTML, no script), every value escaped. */
final class LedgerPages {
  private static final String[] KEY_FIELDS = {
    "idempotency_key",
    "intent_digest",
    "fence_run",
    "fence_version",
    "approval_fingerprint",
    "approval_expires_at"
  };

  private LedgerPages() {}

  static String account(String account, LedgerStore store) {
    JsonObject summary = store.account(account).body();
    StringBuilder rows = new StringBuilder();
    for (JsonObject o : store.orders()) {
      if (text(o, "account").equals(account)) {
        rows.append("<tr id='")
            .append(esc(text(o, "order_id")))
            .append("'><td>")
            .append(esc(text(o, "order_id")))
            .append("</td><td>")
            .append(esc(text(o, "sku")))
            .append("</td><td class='amount'>")
            .append(esc(text(o, "amount_cents")))
            .append("</td><td class='status'>")
            .append(esc(text(o, "status")))
            .append("</td></tr>");
      }
    }
    String base =
        "/web/accounts/"
            + esc(java.net.URLEncoder.encode(account, java.nio.charset.StandardCharsets.UTF_8));
    return page(
        "Account " + account,
        "<meta name='ratchet-revision' content='" + esc(text(summary, "revision")) + "'>",
        "<h1 id='account'>"
            + esc(account)
            + "</h1><p id='summary'>orders <span id='orders-count'>"
            + esc(text(summary, "orders"))
            + "</span>, ordered <span id='ordered-cents'>"
            + esc(text(summary, "ordered_cents"))
            + "</span>, paid <span id='paid-cents'>"
            + esc(text(summary, "paid_cents"))
            + "</span></p><table id='orders'>"
            + rows
            + "</table>"
            + "<form id='order' method='post' action='"
            + base
            + "/orders'><input name='sku'><input name='quantity'><input name='unit_price_cents'>"
            + keyFields()
            + "<button type='submit' id='place-order'>Place order</button></form>"
            + "<form id='pay' method='post' action='"
            + base
            + "/payments'><input name='order_id'><input name='amount_cents'>"
            + keyFields()
            + "<button type='submit' id='pay-button'>Pay</button></form>"
            + "<form id='quick-order' method='post' action='"
            + base
            + "/quick-orders'><input name='sku'><input name='quantity'>"
            + "<input name='unit_price_cents'>"
            + "<button type='submit' id='quick-order-button'>Order now</button></form>");
  }

  static String error(String code, String message) {
    return page(
        "Refused", "", "<p id='error' data-code='" + esc(code) + "'>" + esc(message) + "</p>");
  }

  private static String keyFields() {
    StringBuilder b = new StringBuilder();
    for (String f : KEY_FIELDS) {
      b.append("<input type='hidden' name='").append(f).append("' value=''>");
    }
    return b.toString();
  }

  private static String page(String title, String head, String body) {
    return "<!doctype html><html><head><meta charset='utf-8'><title>"
        + esc(title)
        + "</title>"
        + head
        + "</head><body>"
        + body
        + "</body></html>";
  }

  private static String text(JsonObject o, String key) {
    JsonValue v = o.get(key).orElseThrow();
    return v instanceof dev.ratchet.json.JsonString s ? s.value() : v.toString();
  }

  static String esc(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '\'' -> b.append("&#39;");
        case '"' -> b.append("&quot;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }
}
