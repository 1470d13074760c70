package dev.ratchet.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.store.InboxItem;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * D26: every request needs the session token, every state-changing request the CSRF token; a
 * refused request changes nothing. The console listens on loopback and serves the command line's
 * JSON under /api.
 */
class ConsoleSecurityTest {
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

  private HttpResponse<String> get(String path, String bearer) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(f.base() + path)).header("Cookie", f.signerCookie(path));
    if (bearer != null) {
      b.header("Authorization", "Bearer " + bearer);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(String path, String bearer, String form) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(f.base() + path))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form));
    if (bearer != null) {
      b.header("Authorization", "Bearer " + bearer);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String field(String html, String name) {
    Matcher m = Pattern.compile("name=\"" + name + "\" value=\"([^\"]+)\"").matcher(html);
    assertThat(m.find()).as(name + " in " + html).isTrue();
    return m.group(1);
  }

  @Test
  void requestsWithoutTheSessionTokenAreRefused() throws Exception {
    String token = Sessions.login(f.server);
    for (String path :
        new String[] {"/", "/api/runs", "/runs/" + ConsoleFixture.APPROVE, "/metrics"}) {
      assertThat(get(path, null).statusCode()).as(path).isEqualTo(401);
      assertThat(get(path, "0".repeat(64)).statusCode()).as(path).isEqualTo(401);
      assertThat(get(path, token).statusCode()).as(path).isEqualTo(200);
    }
    assertThat(get("/", null).body()).doesNotContain(ConsoleFixture.APPROVE);
  }

  @Test
  void stateChangingRequestsWithoutTheCsrfTokenOrSessionChangeNothing() throws Exception {
    String token = Sessions.login(f.server);
    String preview = get("/runs/" + ConsoleFixture.APPROVE + "/approve", token).body();
    String previewId = field(preview, "preview");
    String csrf = field(preview, "csrf");
    String action = "/runs/" + ConsoleFixture.APPROVE + "/approve";

    assertThat(post(action, token, "preview=" + previewId).statusCode()).isEqualTo(403);
    assertThat(post(action, token, "preview=" + previewId + "&csrf=" + "0".repeat(64)).statusCode())
        .isEqualTo(403);
    assertThat(
            post(action, null, "preview=" + previewId + "&csrf=" + csrf + f.signature(preview))
                .statusCode())
        .isEqualTo(401);
    assertThat(f.inbox("deploy-greeting", ConsoleFixture.APPROVE))
        .as("nothing delivered")
        .isEmpty();

    // With both tokens the same preview is signed and delivered, once.
    assertThat(
            post(action, token, "preview=" + previewId + "&csrf=" + csrf + f.signature(preview))
                .statusCode())
        .isEqualTo(303);
    assertThat(f.inbox("deploy-greeting", ConsoleFixture.APPROVE)).hasSize(1);
    assertThat(
            post(action, token, "preview=" + previewId + "&csrf=" + csrf + f.signature(preview))
                .statusCode())
        .as("a preview signs once")
        .isEqualTo(409);
    assertThat(f.inbox("deploy-greeting", ConsoleFixture.APPROVE)).hasSize(1);
    // The console's own meters count what it refused and delivered, by reason only.
    String metrics = get("/metrics", token).body();
    assertThat(metrics)
        .contains("ratchet_console_refused_total{reason=\"no_csrf\"} 2.0")
        .contains("ratchet_console_refused_total{reason=\"no_session\"} 1.0")
        .contains("ratchet_console_delivered_total 1.0")
        // Issue 39: registered at zero before the first event, with lower-case reasons and HELP.
        .contains("ratchet_console_refused_total{reason=\"bad_login\"} 0.0")
        .contains("ratchet_console_refused_total{reason=\"fenced\"} 0.0")
        .contains("# HELP ratchet_console_delivered_total Decisions signed in a browser")
        .contains("# HELP ratchet_console_refused_total Console requests refused")
        .doesNotContainPattern("(?m)^# HELP \\S+\\s*$")
        .doesNotContainPattern("reason=\"[^\"]*[A-Z]")
        .doesNotContain(token)
        .doesNotContain(csrf);
  }

  @Test
  void aPreviewOfARunThatMovedSinceIsNotSigned() throws Exception {
    String token = Sessions.login(f.server);
    String preview =
        get("/runs/" + ConsoleFixture.CONFLICT + "/decide?decision=abort", token).body();
    // Someone else decides first, and a worker applies it: the run moves.
    f.cli(
        "review", "decide", ConsoleFixture.CONFLICT, "--decision", "replan", "--reviewer", "rita");
    f.worker(ConsoleFixture.CONFLICT);
    HttpResponse<String> r =
        post(
            "/runs/" + ConsoleFixture.CONFLICT + "/decide",
            token,
            "preview="
                + field(preview, "preview")
                + "&csrf="
                + field(preview, "csrf")
                + f.signature(preview));
    assertThat(r.statusCode()).isEqualTo(409);
    assertThat(r.body()).contains("moved since the preview").contains("nothing was delivered");
    assertThat(f.inbox("rotate-log", ConsoleFixture.CONFLICT))
        .as("no decision waits in the inbox")
        .noneMatch(i -> i.kind() == InboxItem.Kind.REVIEW_DECISION);
  }

  @Test
  void theApiServesTheCommandLinesJson() throws Exception {
    String token = Sessions.login(f.server);
    String cliJson = f.cli("inspect", ConsoleFixture.APPROVE, "--json").trim();
    assertThat(get("/api/runs/" + ConsoleFixture.APPROVE, token).body()).isEqualTo(cliJson);
    assertThat(get("/api/review", token).body())
        .isEqualTo(f.cli("review", "list", "--json").trim());
    assertThat(get("/api/runs/" + ConsoleFixture.CONFLICT + "/review", token).body())
        .isEqualTo(f.cli("review", "show", ConsoleFixture.CONFLICT, "--json").trim());
    assertThat(f.server.address().getAddress().isLoopbackAddress()).isTrue();
  }
}
