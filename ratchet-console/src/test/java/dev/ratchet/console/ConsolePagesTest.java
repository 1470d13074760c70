package dev.ratchet.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.store.RecordSet;
import dev.ratchet.store.StoredRecord;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
    return get(path).body();
  }

  private HttpResponse<String> get(String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create(f.base() + path))
                .header("Authorization", "Bearer " + Sessions.login(f.server))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void theRunPageShowsWhyAWorkerRefusedAnInboxItem() throws Exception {
    // An approval signed with a key the worker's trust root does not hold.
    f.cli("keys", "generate", "--role", "approver", "--name", "bob");
    String bob = f.home.resolve("identities/approver/bob.key").toString();
    f.cli("approve", ConsoleFixture.APPROVE, "--key", bob, "--force");
    f.worker(ConsoleFixture.APPROVE);
    String run = page("/runs/" + ConsoleFixture.APPROVE);
    assertThat(run).contains("refused: untrusted_signer").contains("waiting for approval");
    // Issue 39: judged and refused, so never "in the inbox" waiting to be consumed.
    assertThat(run)
        .contains("an approval in the inbox was refused by a worker (untrusted_signer)")
        .doesNotContain("is in the inbox");
    assertThat(page("/api/runs/" + ConsoleFixture.APPROVE))
        .contains("\"refused\":\"untrusted_signer\"")
        .contains("\"delivered\":false");
  }

  /**
   * Issue 39: why a worker ended or parked a run at claim is on its scheduling row, and the console
   * shows it: a started run's page and {@code /api/runs/RUN}; a run never started (ended at claim)
   * in {@code /api/runs} and at {@code /api/runs/RUN}, where no checkpoint exists to inspect.
   */
  @Test
  void whyAWorkerEndedOrParkedARunAtClaimIsOnItsPageAndInTheApi() throws Exception {
    String task = f.store.runs(ConsoleFixture.APPROVE).get(0).taskId();
    java.time.Duration ttl = java.time.Duration.ofSeconds(30);
    f.store.schedule(task, ConsoleFixture.APPROVE, "plan", "ref");
    dev.ratchet.schedule.Claim started = f.store.claim("w1", ttl).orElseThrow();
    assertThat(started.runId()).isEqualTo(ConsoleFixture.APPROVE);
    String parked = "parked at claim: CONTRACT: service.revision: expected 7; fix the cause";
    assertThat(f.store.park(started, started.lease(), null, parked)).isTrue();
    f.store.release(started.lease());
    f.store.schedule(task, "r-never", "plan", "ref");
    dev.ratchet.schedule.Claim never = f.store.claim("w1", ttl).orElseThrow();
    String ended = "ended at claim, never started: APPROVAL: not trusted; submit it again";
    f.store.finish(never, never.lease(), ended);
    f.store.release(never.lease());

    assertThat(page("/runs/" + ConsoleFixture.APPROVE))
        .contains("<span id=\"claim-reason\">" + parked + "</span>");
    assertThat(page("/api/runs/" + ConsoleFixture.APPROVE))
        .contains("\"scheduling\":{")
        .contains("\"reason\":\"" + parked + "\"")
        .contains("\"state\":\"waiting\"");
    String runs = page("/api/runs");
    assertThat(runs)
        .contains("\"reason\":\"" + parked + "\"")
        .contains("\"run_id\":\"r-never\"")
        .contains("\"status\":\"ended_at_claim\"")
        .contains("\"hint\":\"" + ended + "\"");
    HttpResponse<String> one = get("/api/runs/r-never");
    assertThat(one.statusCode()).isEqualTo(200);
    assertThat(one.body()).contains("\"status\":\"ended_at_claim\"").contains(ended);
  }

  @Test
  void aRecordDeletedFromTheStoreRefusesTheRunPageAndItsApi() throws Exception {
    assertThat(get("/runs/" + ConsoleFixture.APPROVE).statusCode()).isEqualTo(200);
    // Someone with write access to the store but not the keys deletes a middle trace record.
    f.tampering.onRecords(
        list -> {
          if (list.size() < 3 || list.get(0).set() != RecordSet.TRACE) {
            return list;
          }
          List<StoredRecord> edited = new ArrayList<>(list);
          edited.remove(1);
          return edited;
        });
    HttpResponse<String> page = get("/runs/" + ConsoleFixture.APPROVE);
    assertThat(page.statusCode()).isEqualTo(422);
    assertThat(page.body()).contains("CHECKPOINT").doesNotContain("Hash chains verified");
    HttpResponse<String> api = get("/api/runs/" + ConsoleFixture.APPROVE);
    assertThat(api.statusCode()).isEqualTo(422);
    assertThat(api.body()).contains("\"error_code\":\"CHECKPOINT\"");
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
