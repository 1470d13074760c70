package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.json.Json;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17: {@code status} shows a run that needs a person as awaiting_approval or awaiting_review
 * with the machine code of what it waits for and the command to run; {@code status --waiting} lists
 * only those runs.
 */
class WaitingStatusTest {
  @TempDir Path dir;

  @Test
  void statusShowsWhatEachRunWaitsForAndWaitingListsOnlyThoseRuns() {
    MemoryHarness h = new MemoryHarness(dir, 71);
    assertThat(h.run("keys", "generate").exit()).isZero();
    h.person("approver", "alice");
    h.person("reviewer", "rita");
    h.person("operator", "olga");
    Path gated = h.taskFile("gated.json", "\"append_file\"", MemoryHarness.PLAN);
    assertThat(h.run("run", gated.toString(), "--run-id", "r1").exit()).isEqualTo(4);

    MemoryHarness.Result text = h.run("status");
    assertThat(text.out())
        .containsPattern("r1 .* awaiting_approval ")
        .contains("r1: awaiting_approval: an approver signs: 'ratchet approve r1 --approver NAME'");
    JsonObject r1 = run(h.run("status", "--json"));
    assertThat(r1.get("phase").orElseThrow().toString()).isEqualTo("\"running\"");
    assertThat(r1.get("status").orElseThrow().toString()).isEqualTo("\"awaiting_approval\"");
    JsonObject w = (JsonObject) r1.get("waiting").orElseThrow();
    assertThat(w.get("for").orElseThrow().toString()).isEqualTo("\"approval\"");
    assertThat(w.get("delivered").orElseThrow().toString()).isEqualTo("false");

    assertThat(h.run("approve", "r1", "--approver", "alice").exit()).isZero();
    JsonObject approved = run(h.run("status", "--waiting", "--json"));
    assertThat(((JsonObject) approved.get("waiting").orElseThrow()).get("delivered").orElseThrow())
        .hasToString("true");
    h.clock.advance(Duration.ofMinutes(1));
    assertThat(h.run("resume", "r1").exit()).isZero();
    assertThat(h.run("status", "--waiting").out()).contains("no run needs a person");
    assertThat(run(h.run("status", "--json")).get("status").orElseThrow())
        .hasToString("\"completed\"");

    assertThat(h.run("run", gated.toString(), "--run-id", "r2").exit()).isEqualTo(4);
    assertThat(h.run("cancel", "r2", "--operator", "olga").exit()).isZero();
    h.clock.advance(Duration.ofMinutes(1));
    assertThat(h.run("resume", "r2").exit()).isEqualTo(4);
    MemoryHarness.Result waiting = h.run("status", "--waiting");
    assertThat(waiting.out())
        .doesNotContain("r1 ")
        .containsPattern("r2 .* awaiting_review \\(cancel_requested\\)")
        .contains("r2: awaiting_review: a reviewer decides: 'ratchet review show r2'");
    JsonArray only =
        (JsonArray)
            ((JsonObject) Json.parse(h.run("status", "--waiting", "--json").out().strip()))
                .get("runs")
                .orElseThrow();
    assertThat(only.size()).isEqualTo(1);
    assertThat(((JsonObject) only.get(0)).get("waiting").orElseThrow().toString())
        .contains("\"for\":\"review\"");
  }

  private static JsonObject run(MemoryHarness.Result r) {
    assertThat(r.exit()).as(r.err()).isZero();
    return (JsonObject)
        ((JsonArray) ((JsonObject) Json.parse(r.out().strip())).get("runs").orElseThrow()).get(0);
  }
}
