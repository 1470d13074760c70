package dev.ratchet.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.store.InboxItem;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console's pause and unpause (issue 42, D37, ADR 0130): each shown in full, signed in the
 * browser with the operator's own key, delivered as kind PAUSE or UNPAUSE; the run's next resume
 * pauses it, the run page then offers only an unpause, and after it the run goes on.
 */
class ConsolePauseTest {
  private static final String IDLE = "r-idle";
  private static final String IDLE_TASK = "idle-task";

  @TempDir Path dir;
  private ConsoleFixture f;
  private ConsoleHttp web;

  @BeforeEach
  void start() {
    f = new ConsoleFixture(dir);
    web = new ConsoleHttp(f, Sessions.login(f.server));
  }

  @AfterEach
  void stop() {
    f.close();
  }

  @Test
  void aPauseAndAnUnpauseAreShownSignedDeliveredAndTakenByTheNextResume() throws Exception {
    f.startIdle(IDLE, IDLE_TASK);
    String page = web.get("/runs/" + IDLE).body();
    assertThat(page).contains("id=\"pause\"").doesNotContain("id=\"unpause\"");
    assertThat(web.get("/runs/" + IDLE + "/unpause").statusCode())
        .as("a running run is not unpaused")
        .isEqualTo(409);

    String preview = web.get("/runs/" + IDLE + "/pause?reason=vendor+outage").body();
    assertThat(ConsoleHttp.payload(preview))
        .contains("\"decision\":\"pause\"")
        .contains("\"operator_id\":\"olga\"")
        .contains("\"run_id\":\"" + IDLE + "\"")
        .contains("\"reason\":\"vendor outage\"");
    assertThat(
            web.post(
                    "/runs/" + IDLE + "/pause",
                    "preview="
                        + ConsoleHttp.field(preview, "preview")
                        + "&csrf="
                        + ConsoleHttp.field(preview, "csrf")
                        + f.signature(preview))
                .statusCode())
        .isEqualTo(303);
    List<InboxItem> inbox = f.inbox(IDLE_TASK, IDLE);
    assertThat(inbox).extracting(InboxItem::kind).containsExactly(InboxItem.Kind.PAUSE);

    assertThat(f.worker(IDLE)).contains("run " + IDLE + " is paused by an operator");
    page = web.get("/runs/" + IDLE).body();
    assertThat(page).contains("id=\"unpause\"").doesNotContain("id=\"pause\"");
    assertThat(web.get("/?phase=paused").body())
        .as("the runs list names who paused it")
        .contains("unpause (paused by olga)");
    assertThat(web.get("/api/runs/" + IDLE).body())
        .contains("\"phase\":\"paused\"")
        .contains("\"operator_id\":\"olga\"")
        .contains("vendor outage");

    String again = web.get("/runs/" + IDLE + "/unpause?reason=back").body();
    assertThat(ConsoleHttp.payload(again)).contains("\"decision\":\"unpause\"");
    assertThat(
            web.post(
                    "/runs/" + IDLE + "/unpause",
                    "preview="
                        + ConsoleHttp.field(again, "preview")
                        + "&csrf="
                        + ConsoleHttp.field(again, "csrf")
                        + f.signature(again))
                .statusCode())
        .isEqualTo(303);
    assertThat(f.worker(IDLE)).doesNotContain("is paused");
    assertThat(web.get("/api/runs/" + IDLE).body())
        .as("unpaused, the run went on and wrote")
        .contains("\"outcome\":\"operator_unpaused\"")
        .contains("\"outcome\":\"executed\"");
  }
}
