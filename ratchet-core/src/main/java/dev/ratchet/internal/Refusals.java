package dev.ratchet.internal;

import dev.ratchet.error.DecisionRefused;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.store.InboxItem;
import java.util.ArrayList;
import java.util.List;

/**
 * The inbox items one look at the inbox refused, each with its nonce, key id and reason (issue 14,
 * docs/threat-model.md): traced as {@code refusals} (an array of {@code {nonce, key_id, reason,
 * detail}}), printed by {@code resume}, and shown by {@code inspect} as {@code refused: <reason>}.
 */
final class Refusals {
  /** The trace detail field that carries the refusals. */
  static final String FIELD = "refusals";

  private record Entry(String nonce, String keyId, String reason, String detail) {}

  private final List<Entry> entries = new ArrayList<>();

  /** Records why {@code item} was refused. */
  void add(InboxItem item, RatchetException e) {
    String reason;
    if (e instanceof DecisionRefused) {
      reason = ((DecisionRefused) e).reason().wireName();
    } else if (e.code() == ErrorCode.APPROVAL) {
      reason = DecisionRefused.Reason.WRONG_BINDING.wireName();
    } else {
      reason = DecisionRefused.Reason.MALFORMED.wireName();
    }
    entries.add(new Entry(item.nonce(), keyIdOf(item), reason, e.getMessage()));
  }

  boolean isEmpty() {
    return entries.isEmpty();
  }

  JsonArray toJson() {
    List<JsonValue> out = new ArrayList<>();
    for (Entry e : entries) {
      out.add(
          JsonObject.builder()
              .put("nonce", e.nonce())
              .put("key_id", e.keyId())
              .put("reason", e.reason())
              .put("detail", e.detail())
              .build());
    }
    return new JsonArray(out);
  }

  /** {@code APPROVAL}: "no valid <what>" and, per refused item, its nonce, key id and reason. */
  RatchetException noneValid(String what) {
    StringBuilder m = new StringBuilder("no valid ").append(what);
    if (entries.isEmpty()) {
      m.append(" (none delivered)");
    }
    for (int i = 0; i < entries.size(); i++) {
      Entry e = entries.get(i);
      m.append(i == 0 ? ": " : "; ")
          .append("refused ")
          .append(e.nonce())
          .append(" (key ")
          .append(e.keyId())
          .append("): ")
          .append(e.reason())
          .append(": ")
          .append(e.detail());
    }
    return new NoneValid(m.toString(), toJson(), entries.stream().map(Entry::reason).toList());
  }

  /** The refusals of {@code e} if it is a {@link #noneValid} refusal. */
  static JsonArray of(RatchetException e) {
    return e instanceof NoneValid ? ((NoneValid) e).refusals : null;
  }

  private static String keyIdOf(InboxItem item) {
    try {
      JsonValue v = Json.parse(item.envelope());
      if (v instanceof JsonObject) {
        JsonValue id = ((JsonObject) v).get("key_id").orElse(null);
        if (id instanceof JsonString) {
          return ((JsonString) id).value();
        }
      }
    } catch (RatchetException e) {
      // Unparseable: the reason says so; the key id is unknown.
    }
    return "unknown";
  }

  private static final class NoneValid extends dev.ratchet.error.ApprovalMissing {
    private static final long serialVersionUID = 1L;
    private final transient JsonArray refusals;

    NoneValid(String message, JsonArray refusals, List<String> reasons) {
      super(message, reasons);
      this.refusals = refusals;
    }
  }
}
