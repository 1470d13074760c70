package dev.ratchet.jdbc;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Starts {@link ClaimChild} JVMs for the scheduling contract's process race: a slim classpath (the
 * test classes, the store, core, the drivers), C1 only, a small heap, as the other process tests
 * here start theirs.
 */
final class ClaimerProcesses {
  private ClaimerProcesses() {}

  /** A child claimer with {@code args}; its stderr goes to {@code log}. */
  static Process start(Path log, String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto", "-Xmx64m"));
    cmd.add("-cp");
    cmd.add(classpath());
    cmd.add(ClaimChild.class.getName());
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd)
        .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .start();
  }

  private static String classpath() {
    Set<String> entries = new LinkedHashSet<>();
    for (Class<?> c :
        List.of(
            ClaimChild.class,
            JdbcStore.class,
            dev.ratchet.error.RatchetException.class,
            org.postgresql.Driver.class,
            com.zaxxer.hikari.HikariDataSource.class,
            org.slf4j.LoggerFactory.class,
            org.sqlite.JDBC.class)) {
      try {
        entries.add(
            Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
      } catch (URISyntaxException e) {
        throw new IllegalStateException(e);
      }
    }
    return String.join(File.pathSeparator, entries);
  }
}
