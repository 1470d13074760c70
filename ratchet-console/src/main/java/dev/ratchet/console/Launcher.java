package dev.ratchet.console;

import dev.ratchet.ops.ConsoleLauncher;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/** The {@code ServiceLoader} provider {@code ratchet console} finds (ADR 0090). */
public final class Launcher implements ConsoleLauncher {
  @Override
  public Running start(Request request) {
    ConsoleServer server =
        ConsoleServer.start(request, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    request.out().println("Ratchet console: open " + server.url());
    request
        .out()
        .println(
            "(a one-time login address: once used, a new one is printed here; a session lasts "
                + request.sessionTtl()
                + ")");
    request.out().flush();
    return server;
  }
}
