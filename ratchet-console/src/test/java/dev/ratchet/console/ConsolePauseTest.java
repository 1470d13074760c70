package dev.ratchet.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.store.InboxItem;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
  private String token;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() {
    f = new ConsoleFixture(dir);
    token = Sessions.login(f.server);
  }

  @AfterEach
  void stop() {
    f.close();
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(f.base() + path))
            .header("Authorization", "Bearer " + token)
            .header("Cookie", f.signerCookie(path))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(String path, String form) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(f.base() + path))
            .header("Authorization", "Bearer " + token)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String field(String html, String name) {
    Matcher m = Pattern.compile("name=\"" + name + "\" value=\"([^\"]+)\"").matcher(html);
    assertThat(m.find()).as(name + " in " + html).isTrue();
    return m.group(1);
  }

  private static String payload(String html) {
    Matcher m = Pattern.compile("<pre id=\"payload\"[^>]*>([^<]+)</pre>").matcher(html);
    assertThat(m.find()).as("payload in " + html).isTrue();
    return m.group(1).replace("&quot;", "\"");
  }

  @Test
  void aPauseAndAnUnpauseAreShownSignedDeliveredAndTakenByTheNextResume() throws Exception {
    f.startIdle(IDLE, IDLE_TASK);
    String page = get("/runs/" + IDLE).body();
    assertThat(page).contains("id=\"pause\"").doesNotContain("id=\"unpause\"");
    assertThat(get("/runs/" + IDLE + "/unpause").statusCode())
        .as("a running run is not unpaused")
        .isEqualTo(409);

    String preview = get("/runs/" + IDLE + "/pause?reason=vendor+outage").body();
    assertThat(payload(preview))
        .contains("\"decision\":\"pause\"")
        .contains("\"operator_id\":\"olga\"")
        .contains("\"run_id\":\"" + IDLE + "\"")
        .contains("\"reason\":\"vendor outage\"");
    assertThat(
            post(
                    "/runs/" + IDLE + "/pause",
                    "preview="
                        + field(preview, "preview")
                        + "&csrf="
                        + field(preview, "csrf")
                        + f.signature(preview))
                .statusCode())
        .isEqualTo(303);
    List<InboxItem> inbox = f.inbox(IDLE_TASK, IDLE);
    assertThat(inbox).extracting(InboxItem::kind).containsExactly(InboxItem.Kind.PAUSE);

    assertThat(f.worker(IDLE)).contains("run " + IDLE + " is paused by an operator");
    page = get("/runs/" + IDLE).body();
    assertThat(page).contains("id=\"unpause\"").doesNotContain("id=\"pause\"");
    assertThat(get("/?phase=paused").body())
        .as("the runs list names who paused it")
        .contains("unpause (paused by olga)");
    assertThat(get("/api/runs/" + IDLE).body())
        .contains("\"phase\":\"paused\"")
        .contains("\"operator_id\":\"olga\"")
        .contains("vendor outage");

    String again = get("/runs/" + IDLE + "/unpause?reason=back").body();
    assertThat(payload(again)).contains("\"decision\":\"unpause\"");
    assertThat(
            post(
                    "/runs/" + IDLE + "/unpause",
                    "preview="
                        + field(again, "preview")
                        + "&csrf="
                        + field(again, "csrf")
                        + f.signature(again))
                .statusCode())
        .isEqualTo(303);
    assertThat(f.worker(IDLE)).doesNotContain("is paused");
    assertThat(get("/api/runs/" + IDLE).body())
        .as("unpaused, the run went on and wrote")
        .contains("\"outcome\":\"operator_unpaused\"")
        .contains("\"outcome\":\"executed\"");
  }
}
