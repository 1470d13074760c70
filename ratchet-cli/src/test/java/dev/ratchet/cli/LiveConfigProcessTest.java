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
 * Issue 39: a running {@code ratchet worker} follows {@code <home>/ratchet.properties} without a
 * restart. Its idle poll interval comes from {@code worker.poll} (no {@code --poll}); the test
 * counts its empty claim attempts on its metrics endpoint. A malformed file is refused and the
 * worker keeps polling as before; a changed {@code store} is logged as needing a restart, by name
 * only, and the worker keeps driving runs in the store it started with; {@code worker.poll=10m}
 * then takes effect at once: the claim attempts stop.
 */
class LiveConfigProcessTest {
  private static final Pattern ADDRESS =
      Pattern.compile("worker metrics on (http://127\\.0\\.0\\.1:[0-9]+/metrics)");
  private static final Pattern EMPTY_CLAIMS =
      Pattern.compile(
          "(?m)^ratchet_worker_claims_seconds_count\\{outcome=\"empty\"} ([0-9.eE+-]+)$");

  @TempDir Path dir;

  @Test
  void aRunningWorkerAppliesAChangedPollIntervalAndKeepsItsStore() throws Exception {
    ProcessCli c = new ProcessCli(Files.createDirectories(dir.resolve("live"))).keys();
    Path config = c.home().resolve("ratchet.properties");
    Path elsewhere = dir.resolve("elsewhere-store.db");
    try (ReferenceService svc = ReferenceService.start(c.cwd.resolve("ledger.db"), 0)) {
      Path task = WorkerProcessTest.ordersTask(c, svc);
      Path operator = c.operator("olga");
      assertThat(
              c.run("submit", task.toString(), "--run-id", "p1", "--operator-key", "" + operator)
                  .exit())
          .isZero();
      Files.writeString(config, "worker.poll=50ms\n");
      ProcessCli.Started worker = c.start("worker", "--worker-id", "wp", "--metrics-port", "0");
      try {
        WorkerProcessTest.await(worker, s -> s.contains("run p1: waiting"), false);
        Matcher m = ADDRESS.matcher(worker.stderr());
        assertThat(m.find()).as(worker.stderr()).isTrue();
        URI metrics = URI.create(m.group(1));
        assertThat(growth(metrics, 1_500)).as("polling every 50 ms").isGreaterThan(3);

        Files.writeString(config, "worker.poll=soon\n");
        WorkerProcessTest.await(worker, s -> s.contains("changed but is refused"), false);
        assertThat(worker.stderr()).contains("worker.poll").contains("is not a duration");
        assertThat(growth(metrics, 1_500)).as("the old interval stays in force").isGreaterThan(3);

        Files.writeString(config, "worker.poll=50ms\nstore=sqlite:" + elsewhere + "\n");
        WorkerProcessTest.await(worker, s -> s.contains("store changed: takes effect only"), false);
        assertThat(worker.stderr()).doesNotContain("elsewhere-store");
        assertThat(
                c.run("approve", "p1", "--approver", "alice", "--store", "sqlite:" + c.store())
                    .exit())
            .isZero();
        WorkerProcessTest.await(worker, s -> s.contains("run p1: ended"), false);
        assertThat(elsewhere).as("the store it started with stays in force").doesNotExist();

        Files.writeString(config, "worker.poll=10m\nstore=sqlite:" + elsewhere + "\n");
        WorkerProcessTest.await(worker, s -> s.contains("applied worker.poll = 10m"), false);
        // The attempt that read the change may still be counted; after it the worker sleeps.
        Thread.sleep(1_000);
        assertThat(growth(metrics, 1_500)).as("no claim attempt within 10 minutes").isZero();
        assertThat(worker.process().isAlive()).as("no restart").isTrue();
      } finally {
        worker.process().destroyForcibly();
        worker.process().waitFor(30, TimeUnit.SECONDS);
      }
    }
  }

  /** How many empty claim attempts the worker counts over {@code millis}. */
  private static long growth(URI metrics, long millis) throws Exception {
    double before = emptyClaims(metrics);
    Thread.sleep(millis);
    return Math.round(emptyClaims(metrics) - before);
  }

  private static double emptyClaims(URI metrics) throws Exception {
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(metrics).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    Matcher m = EMPTY_CLAIMS.matcher(r.body());
    return m.find() ? Double.parseDouble(m.group(1)) : 0;
  }
}
