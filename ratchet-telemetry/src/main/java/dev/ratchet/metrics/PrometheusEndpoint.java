package dev.ratchet.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * Serves a registry as Prometheus text on {@code GET /metrics}: the reusable endpoint behind {@code
 * ratchet worker --metrics-port} and the console's {@code /metrics}. Metrics carry no secret (see
 * {@link MeterObserver}); bind to loopback unless a scraper elsewhere needs it.
 */
public final class PrometheusEndpoint implements AutoCloseable {
  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final HttpServer server;

  private PrometheusEndpoint(HttpServer server) {
    this.server = server;
  }

  /** Starts serving {@code registry} at {@code http://address/metrics} (port 0: any free port). */
  public static PrometheusEndpoint start(
      PrometheusMeterRegistry registry, InetSocketAddress address) {
    try {
      HttpServer server = HttpServer.create(address, 0);
      server.createContext("/metrics", handler(registry));
      server.start();
      return new PrometheusEndpoint(server);
    } catch (IOException e) {
      throw new UncheckedIOException("metrics endpoint on " + address + ": " + e.getMessage(), e);
    }
  }

  /** The handler alone, for a server that already exists (the console mounts it). */
  public static HttpHandler handler(PrometheusMeterRegistry registry) {
    return exchange -> {
      try (HttpExchange x = exchange) {
        if (!"GET".equals(x.getRequestMethod())) {
          x.sendResponseHeaders(405, -1);
          return;
        }
        byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
        x.sendResponseHeaders(200, body.length);
        try (OutputStream out = x.getResponseBody()) {
          out.write(body);
        }
      }
    };
  }

  /** The port actually bound. */
  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
