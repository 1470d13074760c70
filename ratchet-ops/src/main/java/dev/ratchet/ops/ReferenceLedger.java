package dev.ratchet.ops;

import java.net.URI;
import java.nio.file.Path;

/**
 * The reference orders/payments service behind {@code ratchet serve-ledger} (the HTTP example's
 * other side), found with {@code ServiceLoader}: it lives in ratchet-harness, which the command
 * line has on its class path at run time only (ADR 0110).
 */
public interface ReferenceLedger {
  /** Starts serving on 127.0.0.1:{@code port} (0: any free port) with its ledger in {@code db}. */
  Running start(Path db, int port, Services services);

  /** A started service. */
  interface Running extends AutoCloseable {
    URI uri();

    /** The file holding the secret clients authenticate with. */
    Path clientSecretFile();

    @Override
    void close();
  }
}
