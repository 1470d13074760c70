package dev.ratchet.harness.ledger;

import dev.ratchet.adapters.LedgerApi;
import dev.ratchet.json.Fields;
import dev.ratchet.json.JsonInt;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The ledger's business rules: the effects of the two write kinds ({@link LedgerApi} checks their
 * bodies). An order is the non-idempotent effect every exactly-once check counts (D18); a payment
 * settles an open order of the same account for exactly its amount.
 */
final class LedgerRules {
  private LedgerRules() {}

  /** What a write did, or why the ledger refused it (nothing stored). */
  public record Effect(JsonObject result, String businessId, Reply refusal) {}

  static Effect apply(Connection c, LedgerWrite w, long revision, long now) throws SQLException {
    if (LedgerApi.CREATE_ORDER.equals(w.kind())) {
      Fields f = Fields.exact(w.body(), "body", "account", "sku", "quantity", "unit_price_cents");
      String id = String.format("ord_%06d", revision);
      long amount =
          f.integer("quantity", 1, 1000) * f.integer("unit_price_cents", 0, 1_000_000_000);
      try (PreparedStatement s =
          c.prepareStatement(
              "INSERT INTO orders(order_id, account, sku, quantity, amount_cents, status, idem_key,"
                  + " created_at_ms) VALUES(?,?,?,?,?,'open',?,?)")) {
        s.setString(1, id);
        s.setString(2, f.string("account"));
        s.setString(3, f.string("sku"));
        s.setLong(4, f.integer("quantity", 1, 1000));
        s.setLong(5, amount);
        s.setString(6, w.key());
        s.setLong(7, now);
        s.executeUpdate();
      }
      return new Effect(order(c, id), id, null);
    }
    Fields f = Fields.exact(w.body(), "body", "account", "order_id", "amount_cents");
    String orderId = f.string("order_id");
    JsonObject o = order(c, orderId);
    if (o == null || !text(o, "account").equals(f.string("account"))) {
      return new Effect(
          null, null, Reply.error(422, "unknown_order", "no such order for this account"));
    }
    if (!text(o, "status").equals("open")) {
      return new Effect(
          null, null, Reply.error(422, "order_not_open", "the order is already paid"));
    }
    long amount = f.integer("amount_cents", 0, Long.MAX_VALUE);
    if (((JsonInt) o.get("amount_cents").orElseThrow()).value() != amount) {
      return new Effect(
          null, null, Reply.error(422, "amount_mismatch", "a payment must match the order amount"));
    }
    String paymentId = String.format("pay_%06d", revision);
    try (PreparedStatement s =
        c.prepareStatement(
            "INSERT INTO payments(payment_id, order_id, amount_cents, idem_key, created_at_ms)"
                + " VALUES(?,?,?,?,?)")) {
      s.setString(1, paymentId);
      s.setString(2, orderId);
      s.setLong(3, amount);
      s.setString(4, w.key());
      s.setLong(5, now);
      s.executeUpdate();
    }
    try (PreparedStatement s =
        c.prepareStatement("UPDATE orders SET status='paid' WHERE order_id=?")) {
      s.setString(1, orderId);
      s.executeUpdate();
    }
    JsonObject result =
        JsonObject.builder()
            .put("payment_id", paymentId)
            .put("order_id", orderId)
            .put("account", f.string("account"))
            .put("amount_cents", amount)
            .put("order_status", "paid")
            .build();
    return new Effect(result, orderId, null);
  }

  static String text(JsonObject o, String key) {
    return ((JsonString) o.get(key).orElseThrow()).value();
  }

  static JsonObject order(Connection c, String orderId) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement(
            "SELECT order_id, account, sku, quantity, amount_cents, status FROM orders WHERE"
                + " order_id=?")) {
      s.setString(1, orderId);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? row(rs) : null;
      }
    }
  }

  static List<JsonObject> allOrders(Connection c) throws SQLException {
    List<JsonObject> out = new ArrayList<>();
    try (PreparedStatement s =
            c.prepareStatement(
                "SELECT order_id, account, sku, quantity, amount_cents, status FROM orders ORDER BY"
                    + " order_id");
        ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        out.add(row(rs));
      }
    }
    return out;
  }

  /** {@code {account, orders, ordered_cents, paid_cents}} for one account. */
  static JsonObject summary(Connection c, String account) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement(
            "SELECT count(*), coalesce(sum(amount_cents), 0),"
                + " coalesce(sum(CASE WHEN status='paid' THEN amount_cents END), 0)"
                + " FROM orders WHERE account=?")) {
      s.setString(1, account);
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        return JsonObject.builder()
            .put("account", account)
            .put("orders", rs.getLong(1))
            .put("ordered_cents", rs.getLong(2))
            .put("paid_cents", rs.getLong(3))
            .build();
      }
    }
  }

  private static JsonObject row(ResultSet rs) throws SQLException {
    return JsonObject.builder()
        .put("order_id", rs.getString(1))
        .put("account", rs.getString(2))
        .put("sku", rs.getString(3))
        .put("quantity", rs.getLong(4))
        .put("amount_cents", rs.getLong(5))
        .put("status", rs.getString(6))
        .build();
  }
}
