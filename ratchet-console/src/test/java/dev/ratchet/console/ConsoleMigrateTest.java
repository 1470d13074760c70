package dev.ratchet.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.store.InboxItem;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console's migration (issue 42, D37, ADR 0130): a run waiting for an approval offers
 * <em>Migrate run…</em>; the confirm page shows the difference and both digests beside the full
 * payload, which is signed in the browser and delivered as kind MIGRATE; the next resume applies it
 * (task_migrated). A running run is refused (409) and a widening is refused before anything is
 * signed.
 */
class ConsoleMigrateTest {
  private static final String RUN = "r-wait";
  private static final String TASK = "wait-task";

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

  private Path edited(String what, String with, String name) throws Exception {
    return edited(TASK, what, with, name);
  }

  private Path edited(String task, String what, String with, String name) throws Exception {
    Path original;
    try (var files = Files.walk(dir)) {
      original =
          files
              .filter(p -> p.getFileName().toString().equals(task + ".json"))
              .findFirst()
              .orElseThrow();
    }
    String text = Files.readString(original);
    assertThat(text).contains(what);
    Path out = original.resolveSibling(name);
    Files.writeString(
        out,
        text.replace(what, with).replace("\"task_version\": \"v1\"", "\"task_version\": \"v2\""));
    return out;
  }

  private static String q(Path p) {
    return URLEncoder.encode(p.toString(), StandardCharsets.UTF_8);
  }

  @Test
  void aWaitingRunIsMigratedFromTheConsoleAfterTheDifferenceIsShown() throws Exception {
    f.runWaitingToAppend(RUN, TASK, "fixed\\n");
    assertThat(web.get("/runs/" + RUN).body()).contains("id=\"migrate\"");
    Path narrower = edited("\"max_steps\": 50", "\"max_steps\": 40", "v2.json");
    Path wider =
        edited("\"approval_required\": [\"append_file\"]", "\"approval_required\": []", "v3.json");

    HttpResponse<String> refused = web.get("/runs/" + RUN + "/migrate?task=" + q(wider));
    assertThat(refused.statusCode()).isEqualTo(409);
    assertThat(refused.body()).contains("approval_required: &#39;append_file&#39; is dropped");

    String preview = web.get("/runs/" + RUN + "/migrate?task=" + q(narrower)).body();
    assertThat(preview)
        .contains("budgets.max_steps: 50 -&gt; 40")
        .contains("\"decision\":\"migrate\"".replace("\"", "&quot;"))
        .contains("to_task_digest");
    HttpResponse<String> signed =
        web.post(
            "/runs/" + RUN + "/migrate",
            "preview="
                + ConsoleHttp.field(preview, "preview")
                + "&csrf="
                + ConsoleHttp.field(preview, "csrf")
                + f.signature(preview));
    assertThat(signed.statusCode()).as(signed.body()).isEqualTo(303);
    assertThat(f.inbox(TASK, RUN))
        .extracting(InboxItem::kind)
        .containsExactly(InboxItem.Kind.MIGRATE);

    f.worker(RUN);
    assertThat(web.get("/api/runs/" + RUN).body())
        .contains("\"outcome\":\"task_migrated\"")
        .contains("\"task_version\":\"v2\"");
  }

  @Test
  void aRunningRunIsNotOfferedAMigrationAndIsRefused() throws Exception {
    f.startIdle("r-idle", "idle-task");
    assertThat(web.get("/runs/r-idle").body()).doesNotContain("id=\"migrate\"");
    Path narrower = edited("idle-task", "\"max_steps\": 50", "\"max_steps\": 40", "idle-v2.json");
    HttpResponse<String> r = web.get("/runs/r-idle/migrate?task=" + q(narrower));
    assertThat(r.statusCode()).isEqualTo(409);
    assertThat(r.body()).contains("is running").contains("ratchet pause r-idle");
    assertThat(f.inbox("idle-task", "r-idle")).isEmpty();
  }
}
