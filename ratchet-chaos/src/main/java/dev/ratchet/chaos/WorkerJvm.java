package dev.ratchet.chaos;

import dev.ratchet.harness.ChildJvm;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * How the campaigns start a worker JVM ({@link CrashWorker}, {@link ContentionWorker}) through the
 * harnesses' {@link ChildJvm}: from a slim classpath (the code sources of the modules it needs, not
 * the build tool's), C1 only, a small serial heap, stderr appended to the campaign's log.
 */
final class WorkerJvm {
  private WorkerJvm() {}

  /** Starts {@code main} (a worker class of this module) in its own JVM. */
  static ChildJvm start(Path log, Class<?> main, List<String> args) throws IOException {
    return ChildJvm.start(
        ChaosLedger.hand(new ProcessBuilder(command(main, args)))
            .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())));
  }

  /** The command line of a worker JVM: slim classpath, C1 only, small serial heap. */
  static List<String> command(Class<?> main, List<String> args) {
    return ChildJvm.command(
        List.of(
            "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC",
            "-XX:-UsePerfData",
            "-Xshare:auto",
            "-Xmx128m",
            "-Dsun.net.httpserver.nodelay=true"),
        classpath(),
        main.getName(),
        args);
  }

  private static Class<?> load(String name) {
    try {
      return Class.forName(name, false, WorkerJvm.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("not on the classpath: " + name, e);
    }
  }

  private static String classpath() {
    Set<String> parts = new LinkedHashSet<>();
    for (Class<?> c :
        List.of(
            CrashWorker.class,
            dev.ratchet.Ratchet.class,
            dev.ratchet.jdbc.JdbcStore.class,
            dev.ratchet.adapters.WorkspaceAdapter.class,
            dev.ratchet.testkit.KeyChangingAdapter.class,
            // core's test-jar: the seeded entropy and the fixture's human keys the workers use
            dev.ratchet.testkit.SeededEntropy.class,
            dev.ratchet.harness.ChildJvm.class,
            org.sqlite.JDBC.class,
            // the PostgreSQL dialect's runtime (transitive dependencies of ratchet-jdbc)
            load("org.postgresql.Driver"),
            load("com.zaxxer.hikari.HikariDataSource"),
            load("org.slf4j.Logger"),
            load("org.slf4j.simple.SimpleLogger"))) {
      try {
        parts.add(
            Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
      } catch (URISyntaxException e) {
        throw new IllegalStateException(e);
      }
    }
    return String.join(File.pathSeparator, parts);
  }
}
