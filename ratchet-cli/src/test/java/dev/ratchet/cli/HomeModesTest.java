package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14: after a run, the Ratchet home and every directory the command line made in it are mode
 * 0700 and the SQLite store is 0600, so no other local user lists the keys or reads the records.
 */
class HomeModesTest {
  @TempDir Path dir;

  @Test
  void theHomesDirectoriesAre0700AndTheStoreIs0600() throws IOException {
    ProcessCli c = new ProcessCli(Files.createDirectories(dir.resolve("cwd"))).keys();
    Path task = c.exampleTask("modes", null);
    ProcessCli.Result run = c.run("run", task.toString(), "--run-id", "m1");
    assertThat(run.exit()).as(run.all()).isZero();
    for (String sub :
        new String[] {
          "", "keys", "approvers", "reviewers", "tasks", "runs", "identities", "identities/approver"
        }) {
      Path d = c.home().resolve(sub);
      assertThat(mode(d)).as(d.toString()).isEqualTo("rwx------");
    }
    assertThat(mode(c.store())).isEqualTo("rw-------");
  }

  private static String mode(Path p) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }
}
