package dev.ratchet.harness.ledger;

import dev.ratchet.adapter.Receipt;
import dev.ratchet.adapters.Sqlite;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonInt;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The reference service's ledger on its own SQLite file: orders, payments, the idempotency table
 * that holds each key's request digest and receipt, and the newest fencing token per (run,
 * account). Each write — effect, receipt, revision and state hash — is one transaction, so inside
 * the service there is no window between an effect and its receipt. The state fingerprint is a hash
 * chain over every committed write; the revision is the number of them.
 */
final class LedgerStore implements AutoCloseable {
  public static final String IDENTITY = "ledger-agent";

  private static final String[] SCHEMA = {
    "CREATE TABLE IF NOT EXISTS meta(name TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS orders(order_id TEXT PRIMARY KEY, account TEXT NOT NULL,"
        + " sku TEXT NOT NULL, quantity INTEGER NOT NULL, amount_cents INTEGER NOT NULL,"
        + " status TEXT NOT NULL, idem_key TEXT NOT NULL, created_at_ms INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS payments(payment_id TEXT PRIMARY KEY, order_id TEXT NOT NULL,"
        + " amount_cents INTEGER NOT NULL, idem_key TEXT NOT NULL, created_at_ms INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS idempotency(idem_key TEXT PRIMARY KEY,"
        + " revision INTEGER NOT NULL UNIQUE, request_sha256 TEXT NOT NULL, receipt TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS fences(run_id TEXT NOT NULL, object TEXT NOT NULL,"
        + " lease_version INTEGER NOT NULL, PRIMARY KEY(run_id, object))"
  };

  private final Sqlite db;
  private final InstantSource clock;
  private final String namespace;
  private final String instanceId;

  public LedgerStore(Path file, InstantSource clock, String namespace, Supplier<String> mintId) {
    this.db = Sqlite.open(file, "ledger", SCHEMA);
    this.clock = clock;
    this.namespace = namespace;
    this.instanceId =
        db.tx(
            c -> {
              String id = meta(c, "instance_id");
              if (id == null) {
                id = mintId.get();
                putMeta(c, "instance_id", id);
                putMeta(
                    c,
                    "state_hash",
                    Canonical.sha256Hex(JsonObject.builder().put("instance_id", id).build()));
              }
              return id;
            });
  }

  public synchronized JsonObject state() {
    return db.read(this::stateOf);
  }

  private JsonObject stateOf(Connection c) throws SQLException {
    return JsonObject.builder()
        .put("instance_id", instanceId)
        .put("revision", revision(c))
        .put("state_fingerprint", meta(c, "state_hash"))
        .put("identity", IDENTITY)
        .build();
  }

  /** Executes one write at most once per key (see docs/adapters.md for the order of checks). */
  public synchronized Reply write(LedgerWrite w) {
    return write(w, namespace);
  }

  /**
   * The same, with the receipt stamped {@code receiptNamespace}: the web front end's writes are
   * receipted for the browser adapter that drives the page (docs/browser.md).
   */
  public synchronized Reply write(LedgerWrite w, String receiptNamespace) {
    return db.tx(c -> writeIn(c, w, receiptNamespace));
  }

  private Reply writeIn(Connection c, LedgerWrite w, String receiptNamespace) throws SQLException {
    String object = "account:" + ((JsonString) w.body().get("account").orElseThrow()).value();
    long[] newest = newestFence(c, w.fenceRunId(), object);
    if (w.fenceLeaseVersion() < newest[0] || w.fenceLeaseVersion() < newest[1]) {
      return Reply.error(
          409,
          "fenced",
          "fencing token "
              + w.fenceLeaseVersion()
              + " is older than the newest seen for this run ("
              + newest[1]
              + ") or for "
              + object
              + " ("
              + newest[0]
              + ")");
    }
    recordFence(c, w.fenceRunId(), object, w.fenceLeaseVersion());
    String[] stored = stored(c, w.key());
    if (stored != null) {
      JsonObject receipt = (JsonObject) Json.parse(stored[1]);
      JsonObject body = JsonObject.builder().put("receipt", receipt).build();
      if (stored[0].equals(w.requestSha256())) {
        return new Reply(200, body, Map.of("Idempotent-Replayed", "true"));
      }
      return Reply.of(
          409,
          body.with("error", new JsonString("idempotency_conflict"))
              .with("message", new JsonString("this key was used with a different request")));
    }
    long now = clock.millis();
    if (w.approvalExpiresAtMs() != null && now >= w.approvalExpiresAtMs()) {
      return Reply.error(403, "approval_expired", "the approval expired before the write");
    }
    LedgerRules.Effect effect = LedgerRules.apply(c, w, revision(c) + 1, now);
    if (effect.refusal() != null) {
      return effect.refusal();
    }
    long before = revision(c);
    String hashBefore = meta(c, "state_hash");
    String hashAfter =
        Canonical.sha256Hex(
            JsonObject.builder()
                .put("previous", hashBefore)
                .put("idempotency_key", w.key())
                .put("kind", w.kind())
                .put("result", effect.result())
                .build());
    Receipt r =
        new Receipt(
            receiptNamespace,
            1,
            String.format("rcpt_%06d", before + 1),
            w.key(),
            w.intentDigest(),
            effect.result(),
            before,
            before + 1,
            hashBefore,
            hashAfter,
            now,
            w.fenceRunId(),
            w.fenceLeaseVersion(),
            w.approvalFingerprint(),
            effect.businessId());
    try (PreparedStatement s =
        c.prepareStatement(
            "INSERT INTO idempotency(idem_key, revision, request_sha256, receipt) VALUES(?,?,?,?)")) {
      s.setString(1, w.key());
      s.setLong(2, before + 1);
      s.setString(3, w.requestSha256());
      s.setString(4, Canonical.string(r.toJson()));
      s.executeUpdate();
    }
    putMeta(c, "state_hash", hashAfter);
    return Reply.of(201, JsonObject.builder().put("receipt", r.toJson()).build());
  }

  /** The stored receipt under {@code key}, or 404. */
  public synchronized Reply receipt(String key) {
    String[] stored = db.read(c -> stored(c, key));
    if (stored == null) {
      return Reply.error(404, "not_found", "no write was committed under this key");
    }
    return Reply.of(200, JsonObject.builder().put("receipt", Json.parse(stored[1])).build());
  }

  /** An account summary with the revision and fingerprint it was read at (one snapshot). */
  public synchronized Reply account(String account) {
    return db.tx(
        c ->
            Reply.of(
                200,
                LedgerRules.summary(c, account)
                    .with("revision", new JsonInt(revision(c)))
                    .with("state_fingerprint", new JsonString(meta(c, "state_hash")))));
  }

  public synchronized Reply order(String account, String orderId) {
    return db.read(
        c -> {
          JsonObject o = LedgerRules.order(c, orderId);
          if (o == null || !LedgerRules.text(o, "account").equals(account)) {
            return Reply.error(404, "not_found", "no such order for this account");
          }
          return Reply.of(200, o);
        });
  }

  /** Every order, oldest first: the ledger's own view, for exactly-once checks (D18). */
  public synchronized List<JsonObject> orders() {
    return db.read(LedgerRules::allOrders);
  }

  /** Payments of {@code account}'s orders: the ledger's own count, for exactly-once checks. */
  public synchronized long payments(String account) {
    return db.read(
        c -> {
          try (PreparedStatement s =
              c.prepareStatement(
                  "SELECT count(*) FROM payments p JOIN orders o ON o.order_id=p.order_id"
                      + " WHERE o.account=?")) {
            s.setString(1, account);
            try (ResultSet rs = s.executeQuery()) {
              rs.next();
              return rs.getLong(1);
            }
          }
        });
  }

  /** How many ledger rows (orders and payments) were created under {@code key}. */
  public synchronized int effects(String key) {
    return db.read(
        c -> {
          int n = 0;
          for (String table : List.of("orders", "payments")) {
            try (PreparedStatement s =
                c.prepareStatement("SELECT count(*) FROM " + table + " WHERE idem_key=?")) {
              s.setString(1, key);
              try (ResultSet rs = s.executeQuery()) {
                rs.next();
                n += rs.getInt(1);
              }
            }
          }
          return n;
        });
  }

  private static long revision(Connection c) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT count(*) FROM idempotency");
        ResultSet rs = s.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** {request_sha256, receipt} or null. */
  private static String[] stored(Connection c, String key) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement("SELECT request_sha256, receipt FROM idempotency WHERE idem_key=?")) {
      s.setString(1, key);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? new String[] {rs.getString(1), rs.getString(2)} : null;
      }
    }
  }

  /**
   * The newest token seen for (run, object) and for the run on any object (D8). A single ledger can
   * afford the run-wide check, which is the stricter one; a sharded service would keep only the
   * per-object row.
   */
  private static long[] newestFence(Connection c, String run, String object) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement(
            "SELECT coalesce(max(CASE WHEN object=? THEN lease_version END), 0),"
                + " coalesce(max(lease_version), 0) FROM fences WHERE run_id=?")) {
      s.setString(1, object);
      s.setString(2, run);
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        return new long[] {rs.getLong(1), rs.getLong(2)};
      }
    }
  }

  private static void recordFence(Connection c, String run, String object, long version)
      throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement(
            "INSERT INTO fences(run_id, object, lease_version) VALUES(?,?,?) ON CONFLICT(run_id,"
                + " object) DO UPDATE SET lease_version=max(lease_version, excluded.lease_version)")) {
      s.setString(1, run);
      s.setString(2, object);
      s.setLong(3, version);
      s.executeUpdate();
    }
  }

  private static String meta(Connection c, String name) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT value FROM meta WHERE name=?")) {
      s.setString(1, name);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  private static void putMeta(Connection c, String name, String value) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement("INSERT OR REPLACE INTO meta(name, value) VALUES(?, ?)")) {
      s.setString(1, name);
      s.setString(2, value);
      s.executeUpdate();
    }
  }

  @Override
  public synchronized void close() {
    db.close();
  }
}
