package dev.ratchet.jdbc;

import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Checkpoint;
import dev.ratchet.model.RunState;
import dev.ratchet.sign.KeyRing;
import dev.ratchet.store.CheckpointEnvelope;
import dev.ratchet.store.RecordChain;
import dev.ratchet.store.RecordMac;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.SetHead;
import dev.ratchet.store.StoredRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds a store exactly as Ratchet's first release left it: schema version 1 only (the released
 * {@code V1__*.sql} resource, nothing after it), and a run in the shapes version-1 code wrote. The
 * run is driven by the current runtime on a current store and then rewritten, which is faithful
 * because the later versions changed only these shapes: record bodies gained {@code record_auth}
 * (ADR 0030; removed here, and every chain link recomputed, as version-1 code chained the plain
 * body), the checkpoint payload gained {@code key_salt} and schema version 2 (ADR 0031; removed,
 * and each retained checkpoint re-signed as version 1 with its set heads recomputed), and the lease
 * row gained {@code token_hash} (schema V2; not copied). Everything else (the trace, the pending
 * intent, marks, generations, inbox) is copied as it is.
 */
final class Version1Store {
  private Version1Store() {}

  /** Creates the bookkeeping table and applies only {@code v1}, recording version 1. */
  static void createAtVersion1(Connection c, List<String> v1) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE ratchet_schema (version INTEGER PRIMARY KEY, description TEXT NOT NULL)");
      for (String sql : v1) {
        s.execute(sql);
      }
      s.execute(
          "INSERT INTO ratchet_schema (version, description) VALUES (1, 'marks, generations,"
              + " checkpoints, records, leases, inbox')");
    }
  }

  /** Copies every run of {@code from} (a current store) into {@code to} in version-1 shapes. */
  static void copyAsVersion1(Connection from, Connection to, KeyRing ring) throws SQLException {
    Map<String, Map<RecordSet, Map<Long, SetHead>>> heads = copyRecords(from, to);
    Map<String, String> digests = new HashMap<>();
    try (Statement s = from.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT task_id, run_id, content_digest, generation, body FROM ratchet_checkpoints")) {
      while (rs.next()) {
        String body = version1Checkpoint(rs.getString(5), heads.get(rs.getString(2)), ring);
        String digest = Canonical.sha256Hex(body);
        digests.put(rs.getString(3), digest);
        insert(
            to,
            "ratchet_checkpoints",
            rs.getString(1),
            rs.getString(2),
            digest,
            rs.getLong(4),
            body);
      }
    }
    try (Statement s = from.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT task_id, run_id, generation, content_digest FROM ratchet_generations")) {
      while (rs.next()) {
        insert(
            to,
            "ratchet_generations",
            rs.getString(1),
            rs.getString(2),
            rs.getLong(3),
            digests.get(rs.getString(4)));
      }
    }
    try (Statement s = from.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT task_id, run_id, generation, content_digest, environment_instance_id FROM ratchet_marks")) {
      while (rs.next()) {
        insert(
            to,
            "ratchet_marks",
            rs.getString(1),
            rs.getString(2),
            rs.getLong(3),
            digests.get(rs.getString(4)),
            rs.getString(5));
      }
    }
    try (Statement s = from.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT run_id, owner, version, expires_at_ms, held FROM ratchet_leases")) {
      while (rs.next()) {
        insert(
            to,
            "ratchet_leases",
            rs.getString(1),
            rs.getString(2),
            rs.getLong(3),
            rs.getLong(4),
            rs.getInt(5));
      }
    }
    try (Statement s = from.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT task_id, run_id, nonce, position, kind, envelope FROM ratchet_inbox")) {
      while (rs.next()) {
        insert(
            to,
            "ratchet_inbox",
            rs.getString(1),
            rs.getString(2),
            rs.getString(3),
            rs.getLong(4),
            rs.getString(5),
            rs.getString(6));
      }
    }
  }

  /** Plain bodies, re-chained; returns, per run and set, the head after each count. */
  private static Map<String, Map<RecordSet, Map<Long, SetHead>>> copyRecords(
      Connection from, Connection to) throws SQLException {
    Map<String, Map<RecordSet, Map<Long, SetHead>>> out = new HashMap<>();
    try (Statement s = from.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT task_id, run_id, set_name, sequence, record_key, body, chain"
                    + " FROM ratchet_records ORDER BY task_id, run_id, set_name, sequence")) {
      while (rs.next()) {
        RecordSet set = RecordSet.fromWireName(rs.getString(3));
        Map<Long, SetHead> byCount =
            out.computeIfAbsent(rs.getString(2), k -> new EnumMap<>(RecordSet.class))
                .computeIfAbsent(set, k -> new HashMap<>(Map.of(0L, SetHead.EMPTY)));
        SetHead before = byCount.get(rs.getLong(4) - 1);
        StoredRecord stored =
            new StoredRecord(set, rs.getLong(4), rs.getString(5), rs.getString(6), rs.getString(7));
        String plain = Canonical.string(RecordMac.strip(stored));
        StoredRecord v1 = RecordChain.append(before, set, stored.key(), plain);
        byCount.put(v1.sequence(), RecordChain.advance(before, v1));
        insert(
            to,
            "ratchet_records",
            rs.getString(1),
            rs.getString(2),
            set.wireName(),
            v1.sequence(),
            v1.key(),
            v1.body(),
            v1.chain());
      }
    }
    return out;
  }

  private static String version1Checkpoint(
      String envelope, Map<RecordSet, Map<Long, SetHead>> heads, KeyRing ring) {
    Checkpoint cp = Checkpoint.open(new CheckpointEnvelope(envelope), ring);
    JsonObject state = cp.state().toJson().without("key_salt");
    JsonObject.Builder sets = JsonObject.builder();
    JsonObject oldSets = (JsonObject) state.get("sets").orElseThrow();
    for (String name : oldSets.members().keySet()) {
      RecordSet set = RecordSet.fromWireName(name);
      long count = cp.state().head(set).count();
      SetHead h =
          heads == null
              ? SetHead.EMPTY
              : heads.getOrDefault(set, Map.of(0L, SetHead.EMPTY)).get(count);
      sets.put(name, JsonObject.builder().put("count", h.count()).put("head", h.head()).build());
    }
    RunState v1 = RunState.fromJson(state.with("sets", sets.build()), "state", 1);
    String text = Checkpoint.seal(v1, cp.generation(), ring).text();
    if (!(Json.parse(text) instanceof JsonObject o)
        || !o.get("schema_version").orElseThrow().toString().equals("1")) {
      throw new IllegalStateException("the rewritten checkpoint is not version 1: " + text);
    }
    return text;
  }

  private static void insert(Connection c, String table, Object... values) throws SQLException {
    String marks = String.join(", ", java.util.Collections.nCopies(values.length, "?"));
    try (PreparedStatement ps =
        c.prepareStatement("INSERT INTO " + table + " VALUES (" + marks + ")")) {
      for (int i = 0; i < values.length; i++) {
        ps.setObject(i + 1, values[i]);
      }
      ps.executeUpdate();
    }
  }
}
