package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17: the store comes from {@code --store}, else {@code RATCHET_STORE}, else {@code
 * <home>/ratchet.properties}, else the home's SQLite file; bad settings name their source; and when
 * the adapter's service or files are down the hint points there, not at the store. Real processes,
 * so the environment is real.
 */
class ConfigurationTest {
  @TempDir Path dir;

  @Test
  void flagsBeatTheEnvironmentWhichBeatsTheHomeFile() throws IOException {
    ProcessCli c = new ProcessCli(Files.createDirectories(dir.resolve("cwd"))).keys();
    Path task = c.exampleTask("cfg", null);
    Files.writeString(
        c.home().resolve("ratchet.properties"), "store=sqlite:" + dir.resolve("file.db") + "\n");

    ProcessCli.Result fromFile = c.run("run", task.toString(), "--run-id", "r-file");
    assertThat(fromFile.exit()).as(fromFile.all()).isZero();
    assertThat(dir.resolve("file.db")).exists();
    assertThat(c.store()).as("not the default").doesNotExist();

    c.env.put("RATCHET_STORE", "sqlite:" + dir.resolve("env.db"));
    ProcessCli.Result fromEnv =
        c.run("run", c.exampleTask("cfg2", null).toString(), "--run-id", "r-env");
    assertThat(fromEnv.exit()).as(fromEnv.all()).isZero();
    assertThat(c.run("status").out()).contains("r-env").doesNotContain("r-file");

    ProcessCli.Result fromFlag = c.run("status", "--store", "sqlite:" + dir.resolve("file.db"));
    assertThat(fromFlag.out()).contains("r-file").doesNotContain("r-env");

    c.env.put("RATCHET_STORE", "postgres://nowhere/db");
    ProcessCli.Result badEnv = c.run("status");
    assertThat(badEnv.exit()).isEqualTo(2);
    assertThat(badEnv.err()).contains("RATCHET_STORE");
    c.env.remove("RATCHET_STORE");

    Files.writeString(c.home().resolve("ratchet.properties"), "stroe=sqlite:x.db\n");
    ProcessCli.Result typo = c.run("status");
    assertThat(typo.exit()).isEqualTo(2);
    assertThat(typo.err()).contains("ratchet.properties").contains("unknown key(s) [stroe]");
  }
}
