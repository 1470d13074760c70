package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Authenticated reads through the command line (SPEC D20, issue 15): the growing sets of a run on a
 * real SQLite store are tampered with plain SQL. {@code inspect} and {@code verify} refuse every
 * tampering with {@code CHECKPOINT} (exit 3) and show nothing; {@code approve}, {@code resume} and
 * {@code status} either refuse it (exit 3) or do not use it: the exit codes, the workspace and the
 * run's phase and cursor then equal those of an untampered control run.
 */
class TamperedRecordsCliTest {
  @TempDir Path dir;

  private ProcessCli cli(String name) throws IOException {
    ProcessCli c = new ProcessCli(Files.createDirectories(dir.resolve(name)));
    c.keys();
    return c;
  }

  /** A run stopped at its first write, which waits for an approval (exit 4). */
  private ProcessCli pending(String name) throws IOException {
    ProcessCli c = cli(name);
    ProcessCli.Result run =
        c.run("run", c.exampleTask("t", "write_file").toString(), "--run-id", "r1");
    assertThat(run.exit()).as(run.all()).isEqualTo(4);
    return c;
  }

  /** approve, then resume: the exit codes, app.py and the run's phase and cursor. */
  private static List<String> approveAndResume(ProcessCli c) throws IOException {
    ProcessCli.Result approve =
        c.run(
            "approve", "r1", "--approver-key", c.home().resolve("approvers/alice.key").toString());
    ProcessCli.Result resume = c.run("resume", "r1");
    Path app = c.cwd.resolve("ws-t/app.py");
    ProcessCli.Result status = c.run("status", "--json");
    String run =
        find(status.out(), "\"phase\":\"([a-z_]+)\"")
            + "/"
            + find(status.out(), "\"cursor\":(\\d+)");
    return List.of(
        "approve " + approve.exit(),
        "resume " + resume.exit(),
        "app.py " + Files.readString(app),
        "status " + status.exit() + " " + (status.exit() == 0 ? run : ""));
  }

  private static String find(String text, String regex) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile(regex).matcher(text);
    return m.find() ? m.group(1) : "<none>";
  }

  private static void fullReadersRefuse(ProcessCli c, String what) {
    for (String command : List.of("inspect", "verify")) {
      ProcessCli.Result r =
          command.equals("inspect") ? c.run(command, "r1", "--json") : c.run(command, "r1");
      assertThat(r.exit()).as(what + ": " + command + "\n" + r.all()).isEqualTo(3);
      assertThat(r.err()).as(what + ": " + command).startsWith("error [CHECKPOINT]");
      assertThat(r.out()).as(what + ": " + command + " shows nothing").isEmpty();
    }
  }

  private static void actingPathRefusesOrDoesNotUse(ProcessCli c, String what, List<String> control)
      throws IOException {
    String before = "app.py " + Files.readString(c.cwd.resolve("ws-t/app.py"));
    List<String> got = approveAndResume(c);
    boolean refused = got.get(0).equals("approve 3") || got.get(1).equals("resume 3");
    if (refused) {
      assertThat(got.get(1)).as(what + ": resume after a refusal").isEqualTo("resume 3");
      assertThat(got.get(2)).as(what + ": nothing written").isEqualTo(before);
    } else {
      assertThat(got).as(what + ": the acting path used a tampered record").isEqualTo(control);
    }
  }

  private static String trace(String extra) {
    return "run_id = 'r1' AND set_name = 'trace'" + extra;
  }

  @Test
  void tamperedTraceRowsAreRefusedByTheReadersAndNeverActedOn() throws IOException {
    List<String> control = approveAndResume(pending("control"));
    assertThat(control.get(1)).isNotEqualTo("resume 3");

    ProcessCli middle = pending("middle");
    StoreDump.update(
        middle.store(), "DELETE FROM ratchet_records WHERE " + trace(" AND sequence = 2"));
    fullReadersRefuse(middle, "middle trace row deleted");
    actingPathRefusesOrDoesNotUse(middle, "middle trace row deleted", control);

    ProcessCli allButLast = pending("all-but-last");
    StoreDump.update(
        allButLast.store(),
        "DELETE FROM ratchet_records WHERE "
            + trace(
                " AND sequence < (SELECT MAX(sequence) FROM ratchet_records WHERE " + trace(")")));
    fullReadersRefuse(allButLast, "all but the last trace row deleted");
    actingPathRefusesOrDoesNotUse(allButLast, "all but the last trace row deleted", control);
    assertThat(allButLast.run("status").exit()).isEqualTo(3);

    ProcessCli lastEdited = pending("last-edited");
    StoreDump.update(
        lastEdited.store(),
        "UPDATE ratchet_records SET body = replace(body, '\"at_ms\":', '\"at_ms\":1') WHERE "
            + trace(
                " AND sequence = (SELECT MAX(sequence) FROM ratchet_records WHERE " + trace(")")));
    fullReadersRefuse(lastEdited, "last trace record's body edited");
    assertThat(lastEdited.run("status").exit()).isEqualTo(3);
    actingPathRefusesOrDoesNotUse(lastEdited, "last trace record's body edited", control);
  }

  @Test
  void anEditedNewestReceiptIsRefusedEverywhere() throws IOException {
    ProcessCli c = cli("receipt");
    ProcessCli.Result run = c.run("run", c.exampleTask("t", null).toString(), "--run-id", "r1");
    assertThat(run.exit()).as(run.all()).isZero();
    StoreDump.update(
        c.store(),
        "UPDATE ratchet_records SET body = replace(body, '\"revision_after\":', '\"revision_after\":9')"
            + " WHERE run_id = 'r1' AND set_name = 'receipts' AND sequence ="
            + " (SELECT MAX(sequence) FROM ratchet_records WHERE run_id = 'r1'"
            + " AND set_name = 'receipts')");
    fullReadersRefuse(c, "newest receipt edited");
    ProcessCli.Result status = c.run("status");
    assertThat(status.exit()).as(status.all()).isEqualTo(3);
    assertThat(status.out()).contains("REFUSED");
    ProcessCli.Result resume = c.run("resume", "r1");
    assertThat(resume.exit()).as(resume.all()).isEqualTo(3);
    assertThat(resume.err()).startsWith("error [CHECKPOINT]");
  }
}
