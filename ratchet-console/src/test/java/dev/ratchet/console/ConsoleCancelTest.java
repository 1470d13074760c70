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
 * The console's cancel (ADR 0051, D26): shown in full, signed with the operator's own key on the
 * console's side only with the CSRF token, delivered to the run's inbox as kind CANCEL; the run's
 * next resume consumes it. Run pages show what a run waits for from a person (Waiting).
 */
class ConsoleCancelTest {
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
  void aCancelIsShownSignedOnlyWithTheCsrfTokenDeliveredAndTheNextResumeEndsTheRun()
      throws Exception {
    f.startIdle(IDLE, IDLE_TASK);
    assertThat(get("/runs/" + IDLE).body()).contains("id=\"cancel\"");

    String preview = get("/runs/" + IDLE + "/cancel?reason=wrong+ticket").body();
    String shown = payload(preview);
    assertThat(shown)
        .contains("\"operator_id\":\"olga\"")
        .contains("\"run_id\":\"" + IDLE + "\"")
        .contains("\"task_id\":\"" + IDLE_TASK + "\"")
        .contains("\"reason\":\"wrong ticket\"");
    assertThat(preview).contains("Nothing is pending: at its next recovery the run ends cancelled");
    String previewId = field(preview, "preview");
    String csrf = field(preview, "csrf");
    String action = "/runs/" + IDLE + "/cancel";

    assertThat(post(action, "preview=" + previewId).statusCode()).isEqualTo(403);
    assertThat(post(action, "preview=" + previewId + "&csrf=" + "0".repeat(64)).statusCode())
        .isEqualTo(403);
    assertThat(f.inbox(IDLE_TASK, IDLE)).as("nothing delivered without the CSRF token").isEmpty();

    assertThat(
            post(action, "preview=" + previewId + "&csrf=" + csrf + f.signature(preview))
                .statusCode())
        .isEqualTo(303);
    List<InboxItem> inbox = f.inbox(IDLE_TASK, IDLE);
    assertThat(inbox).hasSize(1);
    assertThat(inbox.get(0).kind()).isEqualTo(InboxItem.Kind.CANCEL);
    assertThat(shown).contains("\"nonce\":\"" + inbox.get(0).nonce() + "\"");
    assertThat(inbox.get(0).envelope()).as("exactly the payload shown was signed").contains(shown);
    assertThat(get("/api/runs/" + IDLE).body())
        .as("the inbox item reads as the operator's cancel")
        .contains("\"kind\":\"cancel\"")
        .contains("\"signer\":\"olga\"")
        .contains("\"reason\":\"wrong ticket\"")
        .doesNotContain("unreadable");
    assertThat(
            post(action, "preview=" + previewId + "&csrf=" + csrf + f.signature(preview))
                .statusCode())
        .as("a preview signs once")
        .isEqualTo(409);
    assertThat(f.inbox(IDLE_TASK, IDLE)).hasSize(1);

    assertThat(f.worker(IDLE)).contains("run " + IDLE + " cancelled (cancelled_by_operator)");
    assertThat(f.cli("inspect", IDLE, "--json")).contains("\"phase\":\"cancelled\"");
    assertThat(f.inbox(IDLE_TASK, IDLE)).as("consumed").isEmpty();
    String ended = get("/runs/" + IDLE).body();
    assertThat(ended).contains("badge cancelled").doesNotContain("id=\"cancel\"");
    assertThat(f.cli("trace", IDLE, "--json")).contains("operator_cancelled").contains("olga");

    HttpResponse<String> again = get("/runs/" + IDLE + "/cancel");
    assertThat(again.statusCode()).isEqualTo(409);
    assertThat(again.body()).contains("run " + IDLE + " is cancelled: there is nothing to cancel");
  }

  @Test
  void aCancelOfARunWithAPendingWriteSaysItFreezesTheRunForAReviewer() throws Exception {
    String preview = get("/runs/" + ConsoleFixture.APPROVE + "/cancel").body();
    assertThat(payload(preview)).contains("\"reason\":\"" + Actions.DEFAULT_CANCEL_REASON + "\"");
    assertThat(preview).contains("A write is pending (append_file log#2)").contains("needs_review");
    assertThat(
            post(
                    "/runs/" + ConsoleFixture.APPROVE + "/cancel",
                    "preview="
                        + field(preview, "preview")
                        + "&csrf="
                        + field(preview, "csrf")
                        + f.signature(preview))
                .statusCode())
        .isEqualTo(303);
    f.worker(ConsoleFixture.APPROVE);
    assertThat(f.cli("inspect", ConsoleFixture.APPROVE, "--json"))
        .contains("\"phase\":\"needs_review\"");
    assertThat(get("/runs/" + ConsoleFixture.APPROVE).body())
        .contains("cancel_requested")
        .doesNotContain("id=\"cancel\"")
        // Issue 39: the approval-gated write is still required while the run is frozen.
        .contains("<strong>required</strong> (append_file is in the task's approval_required)")
        .doesNotContain("not required")
        .doesNotContain("id=\"approve\"");
  }

  @Test
  void aFrozenRunHasNoCancelAndRefusesOne() throws Exception {
    assertThat(get("/runs/" + ConsoleFixture.CONFLICT).body()).doesNotContain("id=\"cancel\"");
    HttpResponse<String> r = get("/runs/" + ConsoleFixture.CONFLICT + "/cancel");
    assertThat(r.statusCode()).isEqualTo(409);
    assertThat(r.body()).contains("is needs_review: a reviewer ends it");
    assertThat(f.inbox("rotate-log", ConsoleFixture.CONFLICT))
        .noneMatch(i -> i.kind() == InboxItem.Kind.CANCEL);
  }

  @Test
  void runPagesShowWhatARunAwaitsFromAPersonAndTheHint() throws Exception {
    String approve = get("/runs/" + ConsoleFixture.APPROVE).body();
    assertThat(approve)
        .contains("<span id=\"status\"><span class=\"badge awaiting_approval\">")
        // Issue 39: the console's own button, not the CLI command printed above it.
        .contains("an approver signs it with Approve… below")
        .doesNotContain("ratchet approve");
    String conflict = get("/runs/" + ConsoleFixture.CONFLICT).body();
    assertThat(conflict)
        .contains("<span id=\"status\"><span class=\"badge awaiting_review\">")
        .contains("a reviewer decides: Replan… or Abort… below")
        .doesNotContain("ratchet review decide")
        // What each decision does, as 'ratchet review show' says it.
        .contains("id=\"replan-does\"")
        .contains("id=\"abort-does\">the run ends failed (receipt_conflict_reviewed)");
    String runs = get("/").body();
    assertThat(runs).contains("badge awaiting_approval").contains("badge awaiting_review");
    f.startIdle(IDLE, IDLE_TASK);
    assertThat(get("/runs/" + IDLE).body()).doesNotContain("id=\"status\"");
  }
}
