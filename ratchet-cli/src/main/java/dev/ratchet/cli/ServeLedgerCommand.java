package dev.ratchet.cli;

import dev.ratchet.ops.Plugins;
import dev.ratchet.ops.ReferenceLedger;
import dev.ratchet.ops.Services;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ratchet serve-ledger}: runs the reference orders service for the HTTP example (a harness,
 * found as a {@link ReferenceLedger} on the class path at run time).
 */
@Command(
    name = "serve-ledger",
    mixinStandardHelpOptions = true,
    description =
        "Run the reference orders/payments service (the 'ledger' adapter's other side) on"
            + " 127.0.0.1 until interrupted. Its ledger lives in its own SQLite file.")
final class ServeLedgerCommand extends CliCommand {
  @Option(
      names = "--db",
      paramLabel = "FILE",
      defaultValue = ".ratchet/ledger.db",
      description = "The service's ledger file (default: .ratchet/ledger.db).")
  Path db;

  @Option(
      names = "--port",
      paramLabel = "PORT",
      defaultValue = "8470",
      description = "Port on 127.0.0.1 (default 8470; 0 picks a free one).")
  int port;

  ServeLedgerCommand(Services services) {
    super(services);
  }

  @Override
  public Integer call() throws InterruptedException {
    if (db.toAbsolutePath().getParent() != null) {
      db.toAbsolutePath().getParent().toFile().mkdirs();
    }
    ReferenceLedger ledger =
        Plugins.find(
            ReferenceLedger.class,
            l -> true,
            "serve-ledger: this build has no reference ledger (ratchet-harness is not on the class"
                + " path)");
    try (ReferenceLedger.Running svc = ledger.start(db, port, services)) {
      out()
          .println(
              "reference ledger service at " + svc.uri() + " (ledger " + db + "); Ctrl-C stops it");
      out()
          .println(
              "clients authenticate with the secret in "
                  + svc.clientSecretFile()
                  + " (a task's connect.client_secret_file)");
      out().flush();
      new CountDownLatch(1).await();
    }
    return 0;
  }
}
