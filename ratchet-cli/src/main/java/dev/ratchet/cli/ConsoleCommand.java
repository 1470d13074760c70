package dev.ratchet.cli;

import dev.ratchet.error.RatchetException;
import dev.ratchet.ops.ConsoleLauncher;
import dev.ratchet.ops.Decisions;
import dev.ratchet.ops.Services;
import dev.ratchet.ops.Settings;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ServiceLoader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ratchet console}: the operator console in a browser (docs/console.md). Loopback only
 * unless {@code --bind}; the terminal shows a one-time login address; sessions expire (D26, D30).
 */
@Command(
    name = "console",
    mixinStandardHelpOptions = true,
    description =
        "Serve the operator console: runs, one run, the review queue; approvals, reviewer"
            + " decisions and cancels signed in your browser with your own key (it holds none)."
            + " Plain HTTP on loopback only, HTTPS (--tls-keystore) elsewhere; prints a one-time"
            + " login address on the terminal.")
final class ConsoleCommand extends CliCommand {
  @Mixin CommonOptions common;

  @Option(
      names = "--port",
      paramLabel = "PORT",
      defaultValue = "8471",
      description = "TCP port (default: 8471; 0: any free port).")
  int port;

  @Option(
      names = "--bind",
      paramLabel = "ADDR",
      defaultValue = "127.0.0.1",
      description = "Address to listen on (default: 127.0.0.1, loopback only).")
  String bind;

  @Option(
      names = "--tls-keystore",
      paramLabel = "FILE.p12",
      description =
          "Serve HTTPS with the certificate in this PKCS#12 key store (password from"
              + " RATCHET_CONSOLE_TLS_PASSWORD); required for any --bind but loopback.")
  Path tlsKeystore;

  @Option(
      names = "--session-ttl",
      paramLabel = "DURATION",
      defaultValue = "12h",
      description = "How long a login session lasts: 90s, 30m, 12h, 7d (default: 12h).")
  String sessionTtl;

  @Option(
      names = "--preview-ttl",
      paramLabel = "DURATION",
      defaultValue = "10m",
      description = "How long a shown decision may still be signed: 90s, 10m (default: 10m).")
  String previewTtl;

  ConsoleCommand(Services services) {
    super(services);
  }

  @Override
  public Integer call() throws InterruptedException {
    if (port < 0 || port > 65_535) {
      throw RatchetException.contract("--port: must be from 0 to 65535");
    }
    InetAddress address;
    try {
      address = InetAddress.getByName(bind);
    } catch (UnknownHostException e) {
      throw RatchetException.contract("--bind: '" + bind + "' is not an address of this host");
    }
    java.time.Duration session = Decisions.duration("--session-ttl", sessionTtl);
    java.time.Duration preview = Decisions.duration("--preview-ttl", previewTtl);
    Settings settings = common.settings(null);
    ConsoleLauncher.Tls tls = null;
    if (tlsKeystore != null) {
      String pw = System.getenv(ConsoleLauncher.Tls.PASSWORD_ENV);
      tls = new ConsoleLauncher.Tls(tlsKeystore, pw == null ? null : pw.toCharArray());
    }
    ConsoleLauncher launcher =
        ServiceLoader.load(ConsoleLauncher.class)
            .findFirst()
            .orElseThrow(
                () ->
                    RatchetException.contract(
                        "console: this build has no console (the ratchet-console module is not on"
                            + " the class path; see docs/console.md)"));
    try (ConsoleLauncher.Running console =
        launcher.start(
            new ConsoleLauncher.Request(
                services,
                settings,
                new InetSocketAddress(address, port),
                tls,
                session,
                preview,
                out()))) {
      if (!address.isLoopbackAddress()) {
        err().println("warning: the console listens on " + bind + " (HTTPS), not only on loopback");
      }
      console.await();
    }
    return 0;
  }
}
