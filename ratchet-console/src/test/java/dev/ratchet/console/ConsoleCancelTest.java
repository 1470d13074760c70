package dev.ratchet.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.store.InboxItem;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
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
  void aCancelIsShownSignedOnlyWithTheCsrfTokenDeliveredAndTheNextResumeEndsTheRun()
      throws Exception {
    f.startIdle(IDLE, IDLE_TASK);
    assertThat(web.get("/runs/" + IDLE).body()).contains("id=\"cancel\"");

    String preview = web.get("/runs/" + IDLE + "/cancel?reason=wrong+ticket").body();
    String shown = ConsoleHttp.payload(preview);
    assertThat(shown)
        .contains("\"operator_id\":\"olga\"")
        .contains("\"run_id\":\"" + IDLE + "\"")
        .contains("\"task_id\":\"" + IDLE_TASK + "\"")
        .contains("\"reason\":\"wrong ticket\"");
    assertThat(preview).contains("Nothing is pending: at its next recovery the run ends cancelled");
    String previewId = ConsoleHttp.field(preview, "preview");
    String csrf = ConsoleHttp.field(preview, "csrf");
    String action = "/runs/" + IDLE + "/cancel";

    assertThat(web.post(action, "preview=" + previewId).statusCode()).isEqualTo(403);
    assertThat(web.post(action, "preview=" + previewId + "&csrf=" + "0".repeat(64)).statusCode())
        .isEqualTo(403);
    assertThat(f.inbox(IDLE_TASK, IDLE)).as("nothing delivered without the CSRF token").isEmpty();

    assertThat(
            web.post(action, "preview=" + previewId + "&csrf=" + csrf + f.signature(preview))
                .statusCode())
        .isEqualTo(303);
    List<InboxItem> inbox = f.inbox(IDLE_TASK, IDLE);
    assertThat(inbox).hasSize(1);
    assertThat(inbox.get(0).kind()).isEqualTo(InboxItem.Kind.CANCEL);
    assertThat(shown).contains("\"nonce\":\"" + inbox.get(0).nonce() + "\"");
    assertThat(inbox.get(0).envelope()).as("exactly the payload shown was signed").contains(shown);
    assertThat(web.get("/api/runs/" + IDLE).body())
        .as("the inbox item reads as the operator's cancel")
        .contains("\"kind\":\"cancel\"")
        .contains("\"signer\":\"olga\"")
        .contains("\"reason\":\"wrong ticket\"")
        .doesNotContain("unreadable");
    assertThat(
            web.post(action, "preview=" + previewId + "&csrf=" + csrf + f.signature(preview))
                .statusCode())
        .as("a preview signs once")
        .isEqualTo(409);
    assertThat(f.inbox(IDLE_TASK, IDLE)).hasSize(1);

    assertThat(f.worker(IDLE)).contains("run " + IDLE + " cancelled (cancelled_by_operator)");
    assertThat(f.cli("inspect", IDLE, "--json")).contains("\"phase\":\"cancelled\"");
    assertThat(f.inbox(IDLE_TASK, IDLE)).as("consumed").isEmpty();
    String ended = web.get("/runs/" + IDLE).body();
    assertThat(ended).contains("badge cancelled").doesNotContain("id=\"cancel\"");
    assertThat(f.cli("trace", IDLE, "--json")).contains("operator_cancelled").contains("olga");

    HttpResponse<String> again = web.get("/runs/" + IDLE + "/cancel");
    assertThat(again.statusCode()).isEqualTo(409);
    assertThat(again.body()).contains("run " + IDLE + " is cancelled: there is nothing to cancel");
  }

  @Test
  void aCancelOfARunWithAPendingWriteSaysItFreezesTheRunForAReviewer() throws Exception {
    String preview = web.get("/runs/" + ConsoleFixture.APPROVE + "/cancel").body();
    assertThat(ConsoleHttp.payload(preview))
        .contains("\"reason\":\"" + Actions.DEFAULT_CANCEL_REASON + "\"");
    assertThat(preview).contains("A write is pending (append_file log#2)").contains("needs_review");
    assertThat(
            web.post(
                    "/runs/" + ConsoleFixture.APPROVE + "/cancel",
                    "preview="
                        + ConsoleHttp.field(preview, "preview")
                        + "&csrf="
                        + ConsoleHttp.field(preview, "csrf")
                        + f.signature(preview))
                .statusCode())
        .isEqualTo(303);
    f.worker(ConsoleFixture.APPROVE);
    assertThat(f.cli("inspect", ConsoleFixture.APPROVE, "--json"))
        .contains("\"phase\":\"needs_review\"");
    assertThat(web.get("/runs/" + ConsoleFixture.APPROVE).body())
        .contains("cancel_requested")
        .doesNotContain("id=\"cancel\"")
        // Issue 39: the approval-gated write is still required while the run is frozen.
        .contains("<strong>required</strong> (append_file is in the task's approval_required)")
        .doesNotContain("not required")
        .doesNotContain("id=\"approve\"");
  }

  @Test
  void aFrozenRunHasNoCancelAndRefusesOne() throws Exception {
    assertThat(web.get("/runs/" + ConsoleFixture.CONFLICT).body()).doesNotContain("id=\"cancel\"");
    HttpResponse<String> r = web.get("/runs/" + ConsoleFixture.CONFLICT + "/cancel");
    assertThat(r.statusCode()).isEqualTo(409);
    assertThat(r.body()).contains("is needs_review: a reviewer ends it");
    assertThat(f.inbox("rotate-log", ConsoleFixture.CONFLICT))
        .noneMatch(i -> i.kind() == InboxItem.Kind.CANCEL);
  }

  @Test
  void runPagesShowWhatARunAwaitsFromAPersonAndTheHint() throws Exception {
    String approve = web.get("/runs/" + ConsoleFixture.APPROVE).body();
    assertThat(approve)
        .contains("<span id=\"status\"><span class=\"badge awaiting_approval\">")
        // Issue 39: the console's own button, not the CLI command printed above it.
        .contains("an approver signs it with Approve… below")
        .doesNotContain("ratchet approve");
    String conflict = web.get("/runs/" + ConsoleFixture.CONFLICT).body();
    assertThat(conflict)
        .contains("<span id=\"status\"><span class=\"badge awaiting_review\">")
        .contains("a reviewer decides: Replan… or Abort… below")
        .doesNotContain("ratchet review decide")
        // What each decision does, as 'ratchet review show' says it.
        .contains("id=\"replan-does\"")
        .contains("id=\"abort-does\">the run ends failed (receipt_conflict_reviewed)");
    String runs = web.get("/").body();
    assertThat(runs).contains("badge awaiting_approval").contains("badge awaiting_review");
    f.startIdle(IDLE, IDLE_TASK);
    assertThat(web.get("/runs/" + IDLE).body()).doesNotContain("id=\"status\"");
  }
}
