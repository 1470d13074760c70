package dev.ratchet.console;

import dev.ratchet.json.JsonObject;
import dev.ratchet.model.Decision;
import dev.ratchet.ops.RunForks;
import dev.ratchet.seam.Entropy;
import dev.ratchet.sign.Role;
import dev.ratchet.store.InboxItem;
import java.time.Duration;
import java.time.InstantSource;
import java.util.LinkedHashMap;

/**
 * Decisions shown and not yet signed (D30): each kept under a random single-use id, bound to the
 * route it was shown for, the browser key it was built for and the time it was shown; forgotten
 * after the preview TTL, and at most {@link #MAX} are kept (showing one more forgets the oldest).
 */
final class Previews {
  /** Shown decisions kept at most. */
  static final int MAX = 64;

  private final InstantSource clock;
  private final Entropy entropy;
  private final Duration ttl;

  /** Oldest first (insertion order); guarded by itself. */
  private final LinkedHashMap<String, Prepared> shown = new LinkedHashMap<>();

  Previews(InstantSource clock, Entropy entropy, Duration ttl) {
    this.clock = clock;
    this.entropy = entropy;
    this.ttl = ttl;
  }

  /**
   * A decision shown: {@code action} is the last segment of {@code /runs/RUN/ACTION}, {@code keyId}
   * the browser key whose trusted name ({@code signer}) the payload carries, {@code role} the trust
   * root that must verify it. {@code fork}: what a fork applies besides its decision (the task
   * files), null for every other action.
   */
  record Prepared(
      String runId,
      String action,
      long generation,
      Decision decision,
      String keyId,
      long shownAtMs,
      RunForks.Prepared fork) {
    Prepared(
        String runId,
        String action,
        long generation,
        Decision decision,
        String keyId,
        long shownAtMs) {
      this(runId, action, generation, decision, keyId, shownAtMs, null);
    }

    InboxItem.Kind kind() {
      return decision.inboxKind();
    }

    /** What the page shows and the browser signs (its canonical bytes, D30). */
    JsonObject payload() {
      return decision.toJson();
    }

    String nonce() {
      return decision.nonce();
    }

    Role role() {
      return decision.role();
    }

    /** The trust root's name for the key the preview was built for. */
    String signer() {
      return decision.signerId();
    }
  }

  long now() {
    return clock.millis();
  }

  /** Keeps {@code p}; returns its id. */
  String keep(Prepared p) {
    String id = entropy.hex128();
    synchronized (shown) {
      forgetExpired();
      shown.put(id, p);
      while (shown.size() > MAX) {
        shown.remove(shown.keySet().iterator().next());
      }
    }
    return id;
  }

  /** The preview under {@code id}, removed (single use); null when unknown or expired. */
  Prepared take(String id) {
    synchronized (shown) {
      forgetExpired();
      return shown.remove(id);
    }
  }

  private void forgetExpired() {
    long oldest = clock.millis() - ttl.toMillis();
    shown.values().removeIf(p -> p.shownAtMs() <= oldest);
  }
}
