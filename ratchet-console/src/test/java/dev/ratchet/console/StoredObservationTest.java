package dev.ratchet.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 36, item 2 (D30): operator surfaces — the console's review queue, its API and decision
 * preview, {@code review show|decide}, {@code inspect} and {@code status} — run no adapter tooling
 * against the live environment: they show the observation the run stored (signed in its checkpoint)
 * and its age. The worker that applies a decision observes for itself.
 */
class StoredObservationTest {
  @TempDir Path dir;
  private ConsoleFixture f;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() {
    f = new ConsoleFixture(dir);
  }

  @AfterEach
  void stop() {
    f.close();
  }

  private String get(String token, String path) throws Exception {
    return http.send(
            HttpRequest.newBuilder(URI.create(f.base() + path))
                .header("Authorization", "Bearer " + token)
                .header("Cookie", f.signerCookie(path))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  @Test
  void operatorSurfacesShowTheStoredObservationWithItsAgeAndObserveNothingLive() throws Exception {
    String run = ConsoleFixture.CONFLICT;
    f.clock.advance(Duration.ofMinutes(5));
    String token = Sessions.login(f.server);
    f.liveObservations.set(0);

    String queue = get(token, "/review");
    assertThat(queue)
        .contains("Environment at the freeze")
        .contains("stored at the freeze, ")
        .containsPattern("\\(\\d+ s ago\\); not observed live here")
        .doesNotContain("Environment now");
    assertThat(get(token, "/api/runs/" + run + "/review"))
        .contains("\"stored_observation\":{")
        .containsPattern("\"observation_age_ms\":[1-9][0-9]{5,}")
        .doesNotContain("live_environment");
    String preview = get(token, "/runs/" + run + "/decide?decision=abort");
    assertThat(preview).contains("as the run stored it at the freeze");
    String show = f.cli("review", "show", run);
    assertThat(show).contains("as stored at the freeze").contains("s ago)");
    assertThat(f.cli("review", "show", run, "--json")).contains("\"observation_age_ms\":");
    f.cli("inspect", run);
    f.cli("status");
    assertThat(f.cli("review", "decide", run, "--decision", "abort", "--reviewer", "rita"))
        .contains("bound to the stored environment revision");
    assertThat(f.liveObservations.get()).as("live observations by operator surfaces").isZero();

    // The worker observes for itself and accepts the decision: nothing changed since the freeze.
    assertThat(f.worker(run)).contains("abort by rita applied");
    assertThat(f.liveObservations.get()).isPositive();
  }
}
