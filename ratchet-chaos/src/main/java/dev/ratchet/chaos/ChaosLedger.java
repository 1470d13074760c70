package dev.ratchet.chaos;

import dev.ratchet.adapters.IdempotentHttpAdapter;
import dev.ratchet.adapters.LedgerApi;
import dev.ratchet.harness.ledger.ReferenceService;
import dev.ratchet.seam.Seams;
import java.net.URI;
import java.nio.file.Path;
import java.util.HexFormat;

/**
 * The campaigns' reference ledger services and their clients share one client secret: made once by
 * the campaign process and handed to its worker JVMs in {@value #ENV}, never on a command line.
 */
final class ChaosLedger {
  static final String ENV = "RATCHET_CHAOS_LEDGER_SECRET";

  private static final String SECRET = secret();

  private ChaosLedger() {}

  private static String secret() {
    String given = System.getenv(ENV);
    return given != null && !given.isBlank()
        ? given
        : HexFormat.of().formatHex(Seams.secureEntropy().bytes(32));
  }

  /** Sets the worker's environment so that it authenticates as this process does. */
  static ProcessBuilder hand(ProcessBuilder pb) {
    pb.environment().put(ENV, SECRET);
    return pb;
  }

  static ReferenceService start(Path db) {
    return ReferenceService.start(db, 0, Seams.systemClock(), Seams.secureEntropy(), SECRET);
  }

  static IdempotentHttpAdapter adapter(URI base) {
    return LedgerApi.adapter(base, SECRET);
  }
}
