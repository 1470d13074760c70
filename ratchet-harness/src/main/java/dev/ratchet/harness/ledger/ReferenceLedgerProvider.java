package dev.ratchet.harness.ledger;

import dev.ratchet.ops.ReferenceLedger;
import dev.ratchet.ops.Services;
import java.net.URI;
import java.nio.file.Path;

/** {@code ratchet serve-ledger}'s service: {@link ReferenceService}, found by ServiceLoader. */
public final class ReferenceLedgerProvider implements ReferenceLedger {
  @Override
  public Running start(Path db, int port, Services services) {
    ReferenceService svc = ReferenceService.start(db, port, services.clock(), services.entropy());
    return new Running() {
      @Override
      public URI uri() {
        return svc.uri();
      }

      @Override
      public Path clientSecretFile() {
        return svc.clientSecretFile();
      }

      @Override
      public void close() {
        svc.close();
      }
    };
  }
}
