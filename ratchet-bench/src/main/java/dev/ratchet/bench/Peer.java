package dev.ratchet.bench;

import java.util.List;
import java.util.Optional;

/**
 * A durable-execution peer measured beside Ratchet on the same PostgreSQL server, in the same
 * rounds (figure 7). The only one is DBOS Transact for Java, compiled in the {@code dbos} profile
 * only ({@code src/dbos/java}); without the profile the figure says "not measured".
 */
interface Peer extends AutoCloseable {
  String PEER_CLASS = "dev.ratchet.bench.DbosPeer";

  /** The database the peer keeps its state in, on the same server (figure 7's CPU rows). */
  String database();

  /** What the peer promises per step, for the table's notes. */
  String guarantee();

  /**
   * Runs {@code n} workflows at once, each of {@code steps} steps whose recorded output is the
   * step's number and {@code output}; returns the wall-clock seconds until all finished and adds
   * each step's latency (ns) to {@code latencies}.
   */
  double round(int n, int steps, String output, List<Long> latencies) throws Exception;

  @Override
  void close();

  /** The DBOS peer on its own database of the server at {@code url}, if compiled in. */
  static Optional<Peer> dbos(String url, String admin, Log log) {
    try {
      Class<?> c = Class.forName(PEER_CLASS);
      return Optional.of(
          (Peer) c.getConstructor(String.class, String.class).newInstance(url, admin));
    } catch (ClassNotFoundException e) {
      log.line("figure 7: DBOS is not on the class path (run with -Pdbos)");
      return Optional.empty();
    } catch (ReflectiveOperationException | RuntimeException e) {
      log.line("figure 7: DBOS could not start: " + e);
      return Optional.empty();
    }
  }
}
