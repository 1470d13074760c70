package dev.ratchet.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runs page: filtered by phase, the runs that need a human first. */
class ConsolePagesTest {
  @TempDir Path dir;
  private ConsoleFixture f;

  @BeforeEach
  void start() {
    f = new ConsoleFixture(dir);
  }

  @AfterEach
  void stop() {
    f.close();
  }

  private String page(String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create(f.base() + path))
                .header("Authorization", "Bearer " + f.server.sessionToken())
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  @Test
  void theRunsPageFiltersByPhase() throws Exception {
    String frozen = page("/?phase=needs_review");
    assertThat(frozen).contains("data-run=\"" + ConsoleFixture.CONFLICT + "\"");
    assertThat(frozen).doesNotContain("data-run=\"" + ConsoleFixture.APPROVE + "\"");
    String running = page("/?phase=running");
    assertThat(running).contains("data-run=\"" + ConsoleFixture.APPROVE + "\"");
    assertThat(running).doesNotContain("data-run=\"" + ConsoleFixture.CONFLICT + "\"");
  }

  @Test
  void runsThatNeedAHumanComeFirst() throws Exception {
    // r-approve sorts first by store order while it waits; once completed it needs no one.
    f.cli("approve", ConsoleFixture.APPROVE, "--approver", "alice");
    assertThat(f.worker(ConsoleFixture.APPROVE)).contains("completed");
    String all = page("/");
    int conflict = all.indexOf("data-run=\"" + ConsoleFixture.CONFLICT + "\"");
    int done = all.indexOf("data-run=\"" + ConsoleFixture.APPROVE + "\"");
    assertThat(conflict).isPositive();
    assertThat(done).isGreaterThan(conflict);
    assertThat(all).contains("<span class=\"needs\">review</span>");
  }
}
