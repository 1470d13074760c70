package dev.ratchet.adapters.internal;

import dev.ratchet.adapter.Receipt;
import dev.ratchet.adapters.Sqlite;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The workspace adapter's own durable store ({@code .ratchet-adapter/receipts.db}): its instance
 * id, the newest fencing token per run, write-ahead intent records and the authoritative receipts.
 * The revision is the number of receipts, so it can never disagree with them.
 */
public final class ReceiptJournal implements AutoCloseable {
  private static final String[] SCHEMA = {
    "CREATE TABLE IF NOT EXISTS meta(name TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS fences(run_id TEXT PRIMARY KEY, lease_version INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS intents(idem_key TEXT PRIMARY KEY, record TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS receipts(idem_key TEXT PRIMARY KEY,"
        + " revision INTEGER NOT NULL UNIQUE, receipt TEXT NOT NULL)"
  };

  private final Sqlite db;

  private ReceiptJournal(Sqlite db) {
    this.db = db;
  }

  public static ReceiptJournal open(Path file) {
    return new ReceiptJournal(Sqlite.open(file, "workspace journal", SCHEMA));
  }

  /** The stored instance id, or {@code mint}'s, stored now, on first open. */
  public String instanceId(Supplier<String> mint) {
    return once("instance_id", mint);
  }

  /**
   * Whether the workspace is a git work tree, as recorded when this journal first answered (D29: a
   * {@code .git} that appears later never switches git on); {@code now} answers on that first call,
   * including the first open of a journal written before the mode was recorded.
   */
  public boolean gitWorkTree(Supplier<Boolean> now) {
    return "git".equals(once("workspace_mode", () -> now.get() ? "git" : "plain"));
  }

  private String once(String name, Supplier<String> mint) {
    return db.tx(
        c -> {
          try (PreparedStatement s = c.prepareStatement("SELECT value FROM meta WHERE name=?")) {
            s.setString(1, name);
            try (ResultSet rs = s.executeQuery()) {
              if (rs.next()) {
                return rs.getString(1);
              }
            }
          }
          String value = mint.get();
          try (PreparedStatement s =
              c.prepareStatement("INSERT INTO meta(name, value) VALUES(?, ?)")) {
            s.setString(1, name);
            s.setString(2, value);
            s.executeUpdate();
          }
          return value;
        });
  }

  public long revision() {
    return db.read(
        c -> {
          try (PreparedStatement s = c.prepareStatement("SELECT count(*) FROM receipts");
              ResultSet rs = s.executeQuery()) {
            rs.next();
            return rs.getLong(1);
          }
        });
  }

  /**
   * Refuses a fencing token older than the newest seen for its run (SPEC D8), else records it as
   * the newest. Durable before the caller acts on it.
   */
  public void admitFence(String runId, long leaseVersion) {
    db.tx(
        c -> {
          long newest = 0;
          try (PreparedStatement s =
              c.prepareStatement("SELECT lease_version FROM fences WHERE run_id=?")) {
            s.setString(1, runId);
            try (ResultSet rs = s.executeQuery()) {
              if (rs.next()) {
                newest = rs.getLong(1);
              }
            }
          }
          if (leaseVersion < newest) {
            throw new RatchetException(
                ErrorCode.FENCED,
                "fencing token " + leaseVersion + " is older than " + newest + " for this run");
          }
          if (leaseVersion > newest) {
            try (PreparedStatement s =
                c.prepareStatement(
                    "INSERT INTO fences(run_id, lease_version) VALUES(?, ?) ON CONFLICT(run_id)"
                        + " DO UPDATE SET lease_version=excluded.lease_version")) {
              s.setString(1, runId);
              s.setLong(2, leaseVersion);
              s.executeUpdate();
            }
          }
          return null;
        });
  }

  public Optional<Receipt> receipt(String key) {
    String text =
        db.read(
            c -> {
              try (PreparedStatement s =
                  c.prepareStatement("SELECT receipt FROM receipts WHERE idem_key=?")) {
                s.setString(1, key);
                try (ResultSet rs = s.executeQuery()) {
                  return rs.next() ? rs.getString(1) : null;
                }
              }
            });
    if (text == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Receipt.fromJson(Json.parse(text), "journal.receipt"));
    } catch (RatchetException e) {
      throw new RatchetException(
          ErrorCode.STORE_UNAVAILABLE,
          "workspace journal: stored receipt is corrupt: " + e.getMessage(),
          e);
    }
  }

  public List<IntentRecord> intents() {
    List<String> texts =
        db.read(
            c -> {
              List<String> out = new ArrayList<>();
              try (PreparedStatement s =
                      c.prepareStatement("SELECT record FROM intents ORDER BY idem_key");
                  ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                  out.add(rs.getString(1));
                }
              }
              return out;
            });
    List<IntentRecord> out = new ArrayList<>();
    for (String t : texts) {
      out.add(IntentRecord.fromJson(Json.parse(t)));
    }
    return out;
  }

  public Optional<IntentRecord> intent(String key) {
    String text =
        db.read(
            c -> {
              try (PreparedStatement s =
                  c.prepareStatement("SELECT record FROM intents WHERE idem_key=?")) {
                s.setString(1, key);
                try (ResultSet rs = s.executeQuery()) {
                  return rs.next() ? rs.getString(1) : null;
                }
              }
            });
    return text == null ? Optional.empty() : Optional.of(IntentRecord.fromJson(Json.parse(text)));
  }

  /** Inserts or replaces the intent record under its key. */
  public void putIntent(IntentRecord r) {
    db.tx(
        c -> {
          try (PreparedStatement s =
              c.prepareStatement("INSERT OR REPLACE INTO intents(idem_key, record) VALUES(?, ?)")) {
            s.setString(1, r.key());
            s.setString(2, Canonical.string(r.toJson()));
            s.executeUpdate();
          }
          return null;
        });
  }

  public void dropIntent(String key) {
    db.tx(c -> deleteIntent(c, key));
  }

  /** One transaction: the receipt becomes authoritative and its intent record goes away. */
  public void commitReceipt(Receipt r) {
    db.tx(
        c -> {
          try (PreparedStatement s =
              c.prepareStatement(
                  "INSERT INTO receipts(idem_key, revision, receipt) VALUES(?, ?, ?)")) {
            s.setString(1, r.idempotencyKey());
            s.setLong(2, r.revisionAfter());
            s.setString(3, Canonical.string(r.toJson()));
            s.executeUpdate();
          }
          return deleteIntent(c, r.idempotencyKey());
        });
  }

  private static Void deleteIntent(java.sql.Connection c, String key) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("DELETE FROM intents WHERE idem_key=?")) {
      s.setString(1, key);
      s.executeUpdate();
    }
    return null;
  }

  @Override
  public void close() {
    db.close();
  }
}
