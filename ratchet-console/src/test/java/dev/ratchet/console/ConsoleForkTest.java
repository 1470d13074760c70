package dev.ratchet.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.schedule.ScheduledRun;
import dev.ratchet.store.StoredRun;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console's fork (issue 42, D37, ADR 0130): a paused run offers <em>Fork run…</em>; the confirm
 * page says what will happen beside the full payload, which the browser signs with the operator's
 * key; the POST applies it through the ops code {@code ratchet fork} uses: the new run exists, is
 * scheduled and a worker drives it, and the source is unchanged. A running source, a used run id,
 * bad input, an untrusted key and a bad signature are refused and create nothing.
 */
class ConsoleForkTest {
  private static final String SOURCE = "r-idle";
  private static final String TASK = "idle-task";
  private static final String NEW = "r-forked";

  @TempDir Path dir;
  private ConsoleFixture f;
  private ConsoleHttp web;

  @BeforeEach
  void start() {
    f = new ConsoleFixture(dir);
    web = new ConsoleHttp(f, Sessions.login(f.server));
    f.startIdle(SOURCE, TASK);
  }

  @AfterEach
  void stop() {
    f.close();
  }

  private void pauseSource() {
    f.cli("pause", SOURCE, "--operator", "olga", "--reason", "vendor outage");
    assertThat(f.worker(SOURCE)).contains("is paused by an operator");
  }

  private StoredRun source() {
    return f.store.load(TASK, SOURCE).orElseThrow();
  }

  private boolean created(String runId) {
    return !f.store.runs(runId).isEmpty()
        || f.store.scheduled().stream().anyMatch(r -> r.runId().equals(runId));
  }

  @Test
  void aPausedRunIsForkedIntoANewScheduledRunAndTheSourceIsUnchanged() throws Exception {
    pauseSource();
    String page = web.get("/runs/" + SOURCE).body();
    assertThat(page).contains("id=\"fork\"").contains("name=\"new_run_id\"");
    StoredRun before = source();

    String preview =
        web.get("/runs/" + SOURCE + "/fork?new_run_id=" + NEW + "&reason=retry+after+fix").body();
    assertThat(ConsoleHttp.payload(preview))
        .contains("\"decision\":\"fork\"")
        .contains("\"operator_id\":\"olga\"")
        .contains("\"run_id\":\"" + SOURCE + "\"")
        .contains("\"new_run_id\":\"" + NEW + "\"")
        .contains("\"source_generation\":" + before.generation())
        .contains("\"new_task_digest\":")
        .contains("\"environment_revision\":")
        .contains("\"reason\":\"retry after fix\"");
    assertThat(preview)
        .contains("Creates run " + NEW)
        .contains("from run " + SOURCE + " (generation " + before.generation())
        .contains("at step 0")
        .contains("create the new run with it")
        .doesNotContain("deliver it to the run");
    assertThat(created(NEW)).as("a preview creates nothing").isFalse();

    HttpResponse<String> signed = web.sign("/runs/" + SOURCE + "/fork", preview);
    assertThat(signed.statusCode()).as(signed.body()).isEqualTo(303);
    assertThat(signed.headers().firstValue("Location"))
        .hasValue("/runs/" + NEW + "?forked=" + SOURCE);

    assertThat(f.store.runs(NEW)).hasSize(1);
    assertThat(f.store.scheduled()).extracting(ScheduledRun::runId).contains(NEW);
    assertThat(web.get("/runs/" + NEW + "?forked=" + SOURCE).body())
        .contains("id=\"forked\"")
        .contains("href=\"/runs/" + SOURCE + "\"");
    assertThat(web.get("/api/runs/" + NEW).body())
        .contains("\"phase\":\"running\"")
        .contains("\"outcome\":\"forked\"")
        .contains("olga");

    assertThat(source().generation())
        .as("the source is not changed")
        .isEqualTo(before.generation());
    assertThat(source().envelope()).isEqualTo(before.envelope());
    assertThat(web.get("/api/runs/" + SOURCE).body()).contains("\"phase\":\"paused\"");

    f.worker(NEW);
    assertThat(web.get("/api/runs/" + NEW).body())
        .as("a worker drives the new run")
        .contains("\"outcome\":\"executed\"");
  }

  @Test
  void theSameForkSignedAgainSchedulesARunAnEarlierForkLeftUnscheduled() throws Exception {
    pauseSource();
    // Issue 42: an earlier fork committed the new run and stopped before scheduling it.
    assertThat(f.cliWithoutScheduling("fork", SOURCE, "--run-id", NEW, "--operator", "olga"))
        .contains("run " + NEW + " forked from run " + SOURCE);
    assertThat(f.store.runs(NEW)).hasSize(1);
    assertThat(f.store.scheduled()).extracting(ScheduledRun::runId).doesNotContain(NEW);
    long generation = f.store.load(TASK, NEW).orElseThrow().generation();

    String preview = web.get("/runs/" + SOURCE + "/fork?new_run_id=" + NEW).body();
    assertThat(preview)
        .contains("Run " + NEW + " already exists: an earlier fork of run " + SOURCE)
        .contains("only schedules it");
    HttpResponse<String> signed = web.sign("/runs/" + SOURCE + "/fork", preview);
    assertThat(signed.statusCode()).as(signed.body()).isEqualTo(303);
    assertThat(f.store.scheduled().stream().filter(r -> r.runId().equals(NEW)).count())
        .isEqualTo(1);
    assertThat(f.store.load(TASK, NEW).orElseThrow().generation())
        .as("the run is not written")
        .isEqualTo(generation);

    HttpResponse<String> again = web.get("/runs/" + SOURCE + "/fork?new_run_id=" + NEW);
    assertThat(again.statusCode()).isEqualTo(409);
    assertThat(again.body()).contains("new_run_id").contains("has a scheduling row");
    f.worker(NEW);
    assertThat(web.get("/api/runs/" + NEW).body())
        .as("a worker drives the repaired run")
        .contains("\"outcome\":\"executed\"");
  }

  @Test
  void aRunningSourceIsNotOfferedAForkAndIsRefused() throws Exception {
    assertThat(web.get("/runs/" + SOURCE).body()).doesNotContain("id=\"fork\"");
    HttpResponse<String> r = web.get("/runs/" + SOURCE + "/fork?new_run_id=" + NEW);
    assertThat(r.statusCode()).isEqualTo(409);
    assertThat(r.body()).contains("is running").contains("ratchet pause " + SOURCE);
    assertThat(created(NEW)).isFalse();
  }

  @Test
  void aUsedRunIdAndBadInputAreRefusedNamingTheField() throws Exception {
    pauseSource();
    long generation = source().generation();
    HttpResponse<String> used =
        web.get("/runs/" + SOURCE + "/fork?new_run_id=" + ConsoleFixture.APPROVE);
    assertThat(used.statusCode()).isEqualTo(409);
    assertThat(used.body()).contains("new_run_id").contains("already exists");

    HttpResponse<String> missing = web.get("/runs/" + SOURCE + "/fork?reason=x");
    assertThat(missing.statusCode()).isEqualTo(400);
    assertThat(missing.body()).contains("new_run_id").contains("required");
    HttpResponse<String> badId = web.get("/runs/" + SOURCE + "/fork?new_run_id=a%20b");
    assertThat(badId.statusCode()).isEqualTo(400);
    assertThat(badId.body()).contains("new_run_id");
    HttpResponse<String> badStep =
        web.get("/runs/" + SOURCE + "/fork?new_run_id=" + NEW + "&from_step=-1");
    assertThat(badStep.statusCode()).isEqualTo(400);
    assertThat(badStep.body()).contains("from_step");

    assertThat(created(NEW)).isFalse();
    assertThat(source().generation()).isEqualTo(generation);
  }

  @Test
  void anUntrustedKeyOrABadSignatureCreatesNothing() throws Exception {
    pauseSource();
    long generation = source().generation();
    // A browser holding the approver's key, which the operators' trust root does not hold.
    String untrusted =
        web.get("/runs/" + SOURCE + "/fork?new_run_id=" + NEW, f.alice.keyId()).body();
    assertThat(untrusted).contains("not in this store&#39;s operator trust root");
    HttpResponse<String> refused = web.sign("/runs/" + SOURCE + "/fork", untrusted);
    assertThat(refused.statusCode()).isEqualTo(422);
    assertThat(refused.body()).contains("untrusted_signer");
    assertThat(created(NEW)).isFalse();

    String preview = web.get("/runs/" + SOURCE + "/fork?new_run_id=" + NEW).body();
    String wrong =
        "preview="
            + ConsoleHttp.field(preview, "preview")
            + "&csrf="
            + ConsoleHttp.field(preview, "csrf")
            + "&key_id="
            + f.olga.keyId()
            + "&signature="
            + f.olga.sign("not the payload".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    HttpResponse<String> forged = web.post("/runs/" + SOURCE + "/fork", wrong);
    assertThat(forged.statusCode()).isEqualTo(422);
    assertThat(created(NEW)).isFalse();
    assertThat(source().generation()).isEqualTo(generation);
  }

  @Test
  void anEnvironmentChangedOrASourceMovedSinceThePreviewCreatesNothing() throws Exception {
    pauseSource();
    String preview = web.get("/runs/" + SOURCE + "/fork?new_run_id=" + NEW).body();
    f.workspaces.get("hello").externalWrite("notes.txt", "changed by hand\n");
    HttpResponse<String> stale = web.sign("/runs/" + SOURCE + "/fork", preview);
    assertThat(stale.statusCode()).as(stale.body()).isEqualTo(409);
    assertThat(stale.body()).contains("STALE_OBSERVATION").contains("sign the fork again");
    assertThat(created(NEW)).isFalse();

    String again = web.get("/runs/" + SOURCE + "/fork?new_run_id=" + NEW).body();
    f.cli("unpause", SOURCE, "--operator", "olga");
    f.worker(SOURCE); // the source moves on (a new generation) before the fork is signed
    HttpResponse<String> moved = web.sign("/runs/" + SOURCE + "/fork", again);
    assertThat(moved.statusCode()).as(moved.body()).isEqualTo(409);
    assertThat(moved.body()).contains("moved since the preview");
    assertThat(created(NEW)).isFalse();
  }
}
