package dev.ratchet.chaos;

import dev.ratchet.chaos.StoredRows.Content;
import dev.ratchet.chaos.StoredRows.Gen;
import dev.ratchet.chaos.StoredRows.Mark;
import dev.ratchet.chaos.StoredRows.Rec;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonInt;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.sign.SecretKey;
import dev.ratchet.store.RecordChain;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.SetHead;
import dev.ratchet.testkit.CheckpointForgery;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The tamper catalogue: each kind turns the stored rows of a run into tampered rows. Checkpoint
 * kinds edit the content the mark names, either naively (the content no longer hashes to the mark's
 * digest: the store's check) or consistently (content re-addressed by its new digest and the mark
 * and generation log re-pointed, so only the envelope, checksum, HMAC, schema and binding checks of
 * recovery stand in the way). Record kinds edit the growing sets (trace, receipts, nonces, action
 * ids), caught by the signed count and head and by {@code TraceAudit}.
 */
final class Mutations {
  enum Kind {
    BIT_FLIP,
    TRUNCATE,
    FIELD_EDIT_RECOMPUTED_CHECKSUM,
    ENVELOPE_EDIT,
    RESIGNED_WRONG_KEY,
    RESIGNED_REVOKED_KEY,
    RESIGNED_UNKNOWN_KEY,
    STALE_GENERATION,
    UNKNOWN_FIELD,
    SWAPPED_RUN,
    SWAPPED_IDS,
    RECORD_BIT_FLIP,
    RECORD_DELETED,
    RECORD_REORDERED,
    RECORD_EDITED_RECHAINED,
    RECORD_APPENDED,
    RECORD_TRUNCATED
  }

  /** The keys an attacker might hold: the right one (strict-schema cases) and wrong ones. */
  record Keys(SecretKey right, SecretKey wrongSameId, SecretKey revoked, SecretKey unknown) {}

  private final Random rnd;
  private final Keys keys;
  private final JsonEdits edits;

  Mutations(Random rnd, Keys keys) {
    this.rnd = rnd;
    this.keys = keys;
    this.edits = new JsonEdits(rnd);
  }

  /** A tampered copy of {@code s}; {@code other} is another run's rows in the same store. */
  StoredRows apply(Kind kind, StoredRows s, StoredRows other) {
    String body = s.current().body();
    return switch (kind) {
      case BIT_FLIP -> replaceBody(s, edits.bitFlip(body), rnd.nextBoolean());
      case TRUNCATE ->
          replaceBody(s, body.substring(0, rnd.nextInt(body.length())), rnd.nextBoolean());
      case FIELD_EDIT_RECOMPUTED_CHECKSUM -> {
        JsonObject env = env(body);
        JsonObject payload = (JsonObject) edits.editLeaf(env.get("payload").orElseThrow());
        yield replaceBody(s, Canonical.string(withChecksum(env, payload)), rnd.nextInt(4) != 0);
      }
      case ENVELOPE_EDIT -> replaceBody(s, Canonical.string(envelopeEdit(env(body))), true);
      case RESIGNED_WRONG_KEY -> replaceBody(s, resign(env(body), keys.wrongSameId(), true), true);
      case RESIGNED_REVOKED_KEY -> replaceBody(s, resign(env(body), keys.revoked(), false), true);
      case RESIGNED_UNKNOWN_KEY -> replaceBody(s, resign(env(body), keys.unknown(), false), true);
      case STALE_GENERATION -> stale(s);
      case UNKNOWN_FIELD -> {
        JsonObject env = env(body);
        JsonObject payload = (JsonObject) env.get("payload").orElseThrow();
        String name = "x_" + Integer.toHexString(rnd.nextInt(1 << 16));
        JsonObject edited =
            rnd.nextBoolean()
                ? sign(withChecksum(env, payload.with(name, new JsonString("v"))), keys.right())
                : sign(withChecksum(env.with(name, new JsonInt(1)), payload), keys.right());
        yield replaceBody(s, Canonical.string(edited), true);
      }
      case SWAPPED_RUN -> replaceBody(s, other.current().body(), true);
      case SWAPPED_IDS -> swappedIds(s, other);
      case RECORD_BIT_FLIP -> recordBitFlip(s);
      case RECORD_DELETED -> {
        List<Rec> r = new ArrayList<>(s.records());
        r.remove(rnd.nextInt(r.size()));
        yield s.withRecords(r);
      }
      case RECORD_REORDERED -> reorder(s);
      case RECORD_EDITED_RECHAINED -> editRechain(s);
      case RECORD_APPENDED -> append(s);
      case RECORD_TRUNCATED -> truncate(s);
    };
  }

  // ---- checkpoint edits ----

  private static JsonObject env(String body) {
    return (JsonObject) Json.parse(body);
  }

  private static JsonObject withChecksum(JsonObject env, JsonObject payload) {
    return CheckpointForgery.withPayload(env, payload);
  }

  private static JsonObject sign(JsonObject env, SecretKey key) {
    return CheckpointForgery.sign(env, key);
  }

  /** Optionally edits a field first, then signs under a key the verifier must not accept. */
  private String resign(JsonObject env, SecretKey key, boolean sameId) {
    JsonObject e = env;
    if (rnd.nextBoolean()) {
      e = withChecksum(e, (JsonObject) edits.editLeaf(e.get("payload").orElseThrow()));
    }
    String out = Canonical.string(sign(e, key));
    if (sameId && out.equals(Canonical.string(env))) {
      throw new IllegalStateException("a re-signature under another key changed nothing");
    }
    return out;
  }

  private JsonObject envelopeEdit(JsonObject env) {
    return switch (rnd.nextInt(4)) {
      case 0 -> env.with("generation", new JsonInt(gen(env) + 1 + rnd.nextInt(3)));
      case 1 -> env.with("generation", new JsonInt(Math.max(1, gen(env) - 1 - rnd.nextInt(3))));
      case 2 -> env.with("schema_version", new JsonInt(99));
      default -> env.with("key_id", new JsonString(keys.right().id() + "x"));
    };
  }

  private static long gen(JsonObject env) {
    return ((JsonInt) env.get("generation").orElseThrow()).value();
  }

  /** Swaps the run, task or instance id (re-signed with the right key), or the mark's instance. */
  private StoredRows swappedIds(StoredRows s, StoredRows other) {
    JsonObject env = env(s.current().body());
    JsonObject payload = (JsonObject) env.get("payload").orElseThrow();
    int choice = rnd.nextInt(4);
    if (choice == 3) {
      Mark m = s.mark();
      return s.withMark(new Mark(m.generation(), m.digest(), other.mark().instance()));
    }
    JsonObject edited;
    if (choice == 0) {
      edited = payload.with("run_id", new JsonString(other.runId()));
    } else if (choice == 1) {
      edited = payload.with("task_id", new JsonString(s.taskId() + "-other"));
    } else {
      JsonObject binding = (JsonObject) payload.get("binding").orElseThrow();
      JsonObject otherBinding =
          (JsonObject)
              ((JsonObject) env(other.current().body()).get("payload").orElseThrow())
                  .get("binding")
                  .orElseThrow();
      edited =
          payload.with(
              "binding",
              binding.with("instance_id", otherBinding.get("instance_id").orElseThrow()));
    }
    return replaceBody(s, Canonical.string(sign(withChecksum(env, edited), keys.right())), true);
  }

  /** An older retained checkpoint brought back in one of four ways. */
  private StoredRows stale(StoredRows s) {
    List<Content> older =
        s.contents().stream().filter(c -> c.generation() < s.mark().generation()).toList();
    if (older.isEmpty()) {
      throw new NotApplicable("no older retained checkpoint");
    }
    Content old = older.get(rnd.nextInt(older.size()));
    Mark m = s.mark();
    return switch (rnd.nextInt(4)) {
      // The mark re-pointed at older content; the generation log still names the current digest.
      case 0 -> s.withMark(new Mark(m.generation(), old.digest(), m.instance()));
      // The older body written over the current content row.
      case 1 -> replaceBody(s, old.body(), false);
      // Mark and log re-pointed consistently: only the signed generation tells.
      case 2 -> {
        List<Gen> gens = new ArrayList<>();
        for (Gen g : s.generations()) {
          gens.add(g.generation() == m.generation() ? new Gen(g.generation(), old.digest()) : g);
        }
        yield s.withMark(new Mark(m.generation(), old.digest(), m.instance()))
            .withGenerations(gens);
      }
      // The mark rolled back to the older generation (the sets were not rolled back with it).
      default -> s.withMark(new Mark(old.generation(), old.digest(), m.instance()));
    };
  }

  /** Puts {@code body} in place of the current content, re-addressed when consistent. */
  private static StoredRows replaceBody(StoredRows s, String body, boolean consistent) {
    Content cur = s.current();
    if (!consistent) {
      List<Content> cs = new ArrayList<>();
      for (Content c : s.contents()) {
        cs.add(c == cur ? new Content(c.digest(), c.generation(), body) : c);
      }
      return s.withContents(cs);
    }
    String digest = Canonical.sha256Hex(body);
    List<Content> cs = new ArrayList<>();
    for (Content c : s.contents()) {
      if (c == cur) {
        cs.add(new Content(digest, c.generation(), body));
      } else if (!c.digest().equals(digest)) {
        cs.add(c);
      }
    }
    List<Gen> gens = new ArrayList<>();
    for (Gen g : s.generations()) {
      gens.add(g.generation() == s.mark().generation() ? new Gen(g.generation(), digest) : g);
    }
    Mark m = s.mark();
    return s.withContents(cs)
        .withGenerations(gens)
        .withMark(new Mark(m.generation(), digest, m.instance()));
  }

  // ---- record edits ----

  private StoredRows recordBitFlip(StoredRows s) {
    List<Rec> r = new ArrayList<>(s.records());
    int i = rnd.nextInt(r.size());
    Rec x = r.get(i);
    Rec y =
        switch (rnd.nextInt(3)) {
          case 0 -> new Rec(x.set(), x.sequence(), x.key(), edits.bitFlip(x.body()), x.chain());
          case 1 -> new Rec(x.set(), x.sequence(), x.key(), x.body(), edits.bitFlip(x.chain()));
          default -> new Rec(x.set(), x.sequence(), edits.bitFlip(x.key()), x.body(), x.chain());
        };
    r.set(i, y);
    return s.withRecords(r);
  }

  private String anySet(StoredRows s, int atLeast) {
    List<String> sets =
        s.records().stream()
            .map(Rec::set)
            .distinct()
            .filter(n -> s.set(n).size() >= atLeast)
            .toList();
    if (sets.isEmpty()) {
      throw new NotApplicable("no set with " + atLeast + " records");
    }
    // Half the time the trace, the set an auditor reads most.
    return sets.contains("trace") && rnd.nextBoolean()
        ? "trace"
        : sets.get(rnd.nextInt(sets.size()));
  }

  private StoredRows reorder(StoredRows s) {
    String set = anySet(s, 2);
    List<Rec> in = s.set(set);
    int a = rnd.nextInt(in.size());
    int b = (a + 1 + rnd.nextInt(Math.min(in.size() - 1, 16))) % in.size();
    List<Rec> r = new ArrayList<>(s.records());
    Rec x = in.get(a);
    Rec y = in.get(b);
    r.set(r.indexOf(x), new Rec(set, x.sequence(), y.key(), y.body(), y.chain()));
    r.set(r.indexOf(y), new Rec(set, y.sequence(), x.key(), x.body(), x.chain()));
    return s.withRecords(r);
  }

  private StoredRows editRechain(StoredRows s) {
    String set = anySet(s, 1);
    List<Rec> in = s.set(set);
    int from = rnd.nextInt(in.size());
    List<Rec> r = new ArrayList<>(s.records());
    String head = from == 0 ? SetHead.EMPTY.head() : in.get(from - 1).chain();
    RecordSet rs = RecordSet.fromWireName(set);
    for (int i = from; i < in.size(); i++) {
      Rec x = in.get(i);
      String body = i == from ? Canonical.string(edits.editLeaf(Json.parse(x.body()))) : x.body();
      String chain = RecordChain.next(head, rs, x.sequence(), x.key(), body);
      r.set(r.indexOf(x), new Rec(set, x.sequence(), x.key(), body, chain));
      head = chain;
    }
    return s.withRecords(r);
  }

  private StoredRows append(StoredRows s) {
    String set = anySet(s, 1);
    List<Rec> in = s.set(set);
    Rec last = in.get(in.size() - 1);
    String body = rnd.nextBoolean() ? last.body() : "{\"forged\":" + rnd.nextInt(1000) + "}";
    String key = "forged-" + Integer.toHexString(rnd.nextInt());
    long seq = last.sequence() + 1;
    String chain = RecordChain.next(last.chain(), RecordSet.fromWireName(set), seq, key, body);
    List<Rec> r = new ArrayList<>(s.records());
    r.add(new Rec(set, seq, key, body, chain));
    return s.withRecords(r);
  }

  private StoredRows truncate(StoredRows s) {
    String set = anySet(s, 1);
    List<Rec> in = s.set(set);
    int keep = rnd.nextInt(in.size());
    List<Rec> r = new ArrayList<>(s.records());
    r.removeAll(in.subList(keep, in.size()));
    return s.withRecords(r);
  }

  /** This kind cannot be applied to these rows (for example no older checkpoint is retained). */
  static final class NotApplicable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotApplicable(String why) {
      super(why, null, false, false);
    }
  }
}
