package dev.ratchet.ops;

import dev.ratchet.Ratchet;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A long-lived server's runtime, rebuilt when the home's trust roots change (issue 39): each {@link
 * #check} re-reads them (a cheap listing unless a trust directory changed, {@link
 * Session#reloadTrust}), logs a change, and counts it, so each run served under an older count can
 * resume under the new roots before its next call.
 */
public final class LiveRatchet {
  private final Session session;
  private final Supplier<Ratchet> build;
  private final Consumer<String> log;
  private final LiveConfig config;
  private Ratchet ratchet;
  private long generation;

  public LiveRatchet(Session session, Supplier<Ratchet> build, Consumer<String> log) {
    this(session, build, log, null);
  }

  /**
   * As above, also looking at the home's {@code ratchet.properties} before each call ({@code
   * config}, null: not), so a change is logged and applied or refused as {@link LiveConfig} says.
   */
  public LiveRatchet(
      Session session, Supplier<Ratchet> build, Consumer<String> log, LiveConfig config) {
    this.session = session;
    this.build = build;
    this.log = log;
    this.config = config;
    this.ratchet = build.get();
  }

  /** The runtime under the current trust roots and how many reloads built it. */
  public record Snapshot(Ratchet ratchet, long generation) {}

  /** Re-reads the trust roots; the runtime to use now. */
  public synchronized Snapshot check() {
    if (config != null) {
      config.check();
    }
    String changed = session.reloadTrust();
    if (changed != null) {
      ratchet = build.get();
      generation++;
      log.accept("trust roots changed, reloaded: " + changed);
    }
    return new Snapshot(ratchet, generation);
  }
}
