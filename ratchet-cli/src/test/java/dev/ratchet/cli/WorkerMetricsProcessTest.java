package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.harness.ledger.ReferenceService;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ratchet worker --metrics-port}: a real worker process drives a run (to its approval, then
 * to the end once approved) and its loopback endpoint serves the steps, commits, proposals and
 * adapter calls it made as Prometheus text with non-zero counts; its own series (claims with a
 * latency histogram, driving results, renewals, drains, trust reloads) and the rare-event counters
 * are there, the latter at zero, every one with HELP text (issue 39).
 */
class WorkerMetricsProcessTest {
  private static final Pattern ADDRESS =
      Pattern.compile("worker metrics on (http://127\\.0\\.0\\.1:[0-9]+/metrics)");

  @TempDir Path dir;

  @Test
  void aWorkerServesItsMetersAsPrometheusTextOnLoopback() throws Exception {
    ProcessCli c = new ProcessCli(Files.createDirectories(dir.resolve("metrics"))).keys();
    try (ReferenceService svc = ReferenceService.start(c.cwd.resolve("ledger.db"), 0)) {
      Path task = WorkerProcessTest.ordersTask(c, svc);
      Path operator = c.operator("olga");
      assertThat(
              c.run("submit", task.toString(), "--run-id", "m1", "--operator-key", "" + operator)
                  .exit())
          .isZero();
      ProcessCli.Started worker =
          c.start("worker", "--worker-id", "wm", "--poll", "100ms", "--metrics-port", "0");
      try {
        WorkerProcessTest.await(worker, s -> s.contains("run m1: waiting"), false);
        assertThat(c.run("approve", "m1", "--approver", "alice").exit()).isZero();
        WorkerProcessTest.await(worker, s -> s.contains("run m1: ended"), false);
        Matcher m = ADDRESS.matcher(worker.stderr());
        assertThat(m.find()).as(worker.stderr()).isTrue();

        HttpResponse<String> r =
            HttpClient.newHttpClient()
                .send(
                    HttpRequest.newBuilder(URI.create(m.group(1))).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
        String text = r.body();
        assertThat(positive(text, "ratchet_steps_total\\{outcome=\"executed\"}")).isTrue();
        assertThat(positive(text, "ratchet_steps_total\\{outcome=\"completed\"}")).isTrue();
        assertThat(positive(text, "ratchet_commits_seconds_count\\{result=\"ok\"}")).isTrue();
        assertThat(positive(text, "ratchet_proposals_seconds_count\\{[^}]*}")).isTrue();
        assertThat(positive(text, "ratchet_adapter_calls_seconds_count\\{[^}]*}")).isTrue();
        // Issue 39: the worker's own series, and rare events registered at zero before any.
        assertThat(positive(text, "ratchet_worker_claims_seconds_count\\{outcome=\"claimed\"}"))
            .isTrue();
        assertThat(positive(text, "ratchet_worker_claims_seconds_bucket\\{[^}]*}")).isTrue();
        assertThat(positive(text, "ratchet_worker_driven_total\\{result=\"waiting\"}")).isTrue();
        assertThat(positive(text, "ratchet_worker_driven_total\\{result=\"ended\"}")).isTrue();
        assertThat(text)
            .contains("ratchet_worker_runs_in_flight ")
            .contains("ratchet_worker_renewals_total{result=\"lost\"} 0.0")
            .contains("ratchet_worker_drains_total 0.0")
            .contains("ratchet_worker_trust_reloads_total 0.0")
            .contains("ratchet_fenced_total 0.0")
            .contains("ratchet_leases_lost_total 0.0")
            .contains("ratchet_inbox_refusals_total{reason=\"untrusted_signer\"} 0.0")
            .doesNotContainPattern("(?m)^# HELP \\S+\\s*$");
        // Bounded tags only: no run id, worker id or key reaches a scrape.
        assertThat(text).doesNotContain("m1").doesNotContain("\"wm\"");
      } finally {
        worker.process().destroyForcibly();
        worker.process().waitFor(30, TimeUnit.SECONDS);
      }
      assertThat(c.run("status", "m1").out()).contains("completed");
    }
  }

  /** Whether some sample of the series matching {@code series} has a value above zero. */
  private static boolean positive(String text, String series) {
    Matcher m = Pattern.compile("(?m)^" + series + " ([0-9.eE+-]+)$").matcher(text);
    while (m.find()) {
      if (Double.parseDouble(m.group(1)) > 0) {
        return true;
      }
    }
    return false;
  }
}
