package dev.ratchet.ops;

import dev.ratchet.error.RatchetException;
import dev.ratchet.metrics.MeterObserver;
import dev.ratchet.metrics.PrometheusEndpoint;
import dev.ratchet.telemetry.RatchetObserver;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;

/**
 * {@code ratchet worker --metrics-port}: the worker's meters (docs/telemetry.md) as Prometheus text
 * on {@code http://ADDRESS:PORT/metrics}, loopback unless {@code --metrics-bind} says otherwise.
 * Without a port nothing is served and the worker's Ratchet gets no observer at all.
 */
public final class WorkerMetrics implements AutoCloseable {
  private final RatchetObserver observer;
  private final dev.ratchet.worker.WorkerEvents events;
  private final PrometheusEndpoint endpoint;

  private WorkerMetrics(
      RatchetObserver observer,
      dev.ratchet.worker.WorkerEvents events,
      PrometheusEndpoint endpoint) {
    this.observer = observer;
    this.events = events;
    this.endpoint = endpoint;
  }

  /** Serves the meters when {@code port} is given (0: any free port, printed on {@code err}). */
  public static WorkerMetrics start(String bind, Integer port, PrintWriter err) {
    if (port == null) {
      return new WorkerMetrics(RatchetObserver.NONE, dev.ratchet.worker.WorkerEvents.NONE, null);
    }
    if (port < 0 || port > 65_535) {
      throw RatchetException.contract("--metrics-port: " + port + " is not a port (0-65535)");
    }
    InetSocketAddress address = new InetSocketAddress(bind, port);
    if (address.isUnresolved()) {
      throw RatchetException.contract("--metrics-bind: cannot resolve '" + bind + "'");
    }
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    PrometheusEndpoint endpoint;
    try {
      endpoint = PrometheusEndpoint.start(registry, address);
    } catch (UncheckedIOException e) {
      throw RatchetException.contract("--metrics-port: " + e.getMessage());
    }
    String host = address.getAddress().getHostAddress();
    err.println(
        "worker metrics on http://"
            + (host.contains(":") ? "[" + host + "]" : host)
            + ":"
            + endpoint.port()
            + "/metrics");
    err.flush();
    return new WorkerMetrics(new MeterObserver(registry), new WorkerMeters(registry), endpoint);
  }

  /** What the worker loop reports to (issue 39: claims, renewals, drains, trust reloads). */
  public dev.ratchet.worker.WorkerEvents events() {
    return events;
  }

  /** What the worker's Ratchet reports to. */
  public RatchetObserver observer() {
    return observer;
  }

  @Override
  public void close() {
    if (endpoint != null) {
      endpoint.close();
    }
  }
}
