package dev.ratchet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17: sqlite-jdbc's native library is extracted once into the Ratchet home's cache, not into
 * the system temp directory by every JVM (a killed JVM used to leave its copy behind there).
 */
class NativeLibraryCacheTest {
  @TempDir Path dir;

  @Test
  void twoJvmsLeaveNoSqliteLibraryInTheTempDirectoryAndShareOneCachedCopy() throws IOException {
    Path tmp = Files.createDirectories(dir.resolve("tmp"));
    ProcessCli c = new ProcessCli(Files.createDirectories(dir.resolve("cwd"))).keys();
    c.jvmArgs.add("-Djava.io.tmpdir=" + tmp);
    Path task = c.exampleTask("native", null);

    ProcessCli.Result run = c.run("run", task.toString(), "--run-id", "r1");
    assertThat(run.exit()).as(run.all()).isZero();
    ProcessCli.Result status = c.run("status");
    assertThat(status.exit()).as(status.all()).isZero();

    assertThat(names(tmp)).noneMatch(n -> n.startsWith("sqlite-"));
    List<Path> cached;
    try (Stream<Path> s = Files.walk(c.home().resolve("cache"))) {
      cached = s.filter(p -> p.getFileName().toString().contains("sqlitejdbc")).toList();
    }
    assertThat(cached).as("one copy, extracted once, used by both JVMs").hasSize(1);
  }

  private static List<String> names(Path d) throws IOException {
    try (Stream<Path> s = Files.list(d)) {
      return s.map(p -> p.getFileName().toString()).toList();
    }
  }
}
