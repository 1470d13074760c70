package dev.ratchet.adapters;

import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.json.JsonObject;

/**
 * Intents and arguments for the reference ledger (also used by ratchet-harness's tests of the
 * reference service, through this module's test-jar).
 */
public final class Ledgers {
  private Ledgers() {}

  public static JsonObject order(String account, String sku, long quantity, long unitPrice) {
    return JsonObject.builder()
        .put("account", account)
        .put("sku", sku)
        .put("quantity", quantity)
        .put("unit_price_cents", unitPrice)
        .build();
  }

  public static WriteIntent createOrder(String account, String sku, long quantity, long unitPrice) {
    return new WriteIntent(
        LedgerApi.NAMESPACE,
        "create_order",
        order(account, sku, quantity, unitPrice),
        "irreversible_write");
  }

  public static WriteIntent payOrder(String account, String orderId, long amount) {
    return new WriteIntent(
        LedgerApi.NAMESPACE,
        "pay_order",
        JsonObject.builder()
            .put("account", account)
            .put("order_id", orderId)
            .put("amount_cents", amount)
            .build(),
        "irreversible_write");
  }

  public static JsonObject account(String account) {
    return JsonObject.builder().put("account", account).build();
  }
}
