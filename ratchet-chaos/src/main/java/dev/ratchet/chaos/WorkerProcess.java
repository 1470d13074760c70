package dev.ratchet.chaos;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A {@link CrashWorker} JVM: started from a slim classpath (the code sources of the modules it
 * needs, not the build tool's), C1 only, with its stdout read line by line into a queue by a daemon
 * thread so the supervisor can wait with a timeout, and killed with SIGKILL through its handle.
 */
final class WorkerProcess {
  private static final String EOF = "\u0000EOF";
  private final Process process;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final List<String> seen = new ArrayList<>();

  private WorkerProcess(Process process) {
    this.process = process;
    readLines(process, "chaos-worker-reader", line -> lines.add(line == null ? EOF : line));
  }

  /**
   * Hands every line {@code process} prints to {@code sink} on a daemon thread, then {@code null}
   * at the end of its output (a read error arrives as a {@code READ-ERROR} line first).
   */
  static void readLines(Process process, String threadName, Consumer<String> sink) {
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                  sink.accept(line);
                }
              } catch (IOException e) {
                sink.accept("READ-ERROR " + e);
              } finally {
                sink.accept(null);
              }
            },
            threadName);
    reader.setDaemon(true);
    reader.start();
  }

  /** Starts {@code main} (a worker class of this module) in its own JVM. */
  static WorkerProcess start(Path log, Class<?> main, List<String> args) throws IOException {
    return new WorkerProcess(
        ChaosLedger.hand(new ProcessBuilder(command(main, args)))
            .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start());
  }

  /** The command line of a worker JVM: slim classpath, C1 only, small serial heap. */
  static List<String> command(Class<?> main, List<String> args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(
        List.of(
            "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC",
            "-XX:-UsePerfData",
            "-Xshare:auto",
            "-Xmx128m",
            "-Dsun.net.httpserver.nodelay=true",
            "-cp",
            classpath(),
            main.getName()));
    cmd.addAll(args);
    return cmd;
  }

  /** The next line, or null at end of output or after the timeout. */
  String next(long timeoutMs) throws InterruptedException {
    String line = lines.poll(timeoutMs, TimeUnit.MILLISECONDS);
    if (line == null || line.equals(EOF)) {
      if (line != null) {
        lines.add(EOF); // stay at the end
      }
      return null;
    }
    seen.add(line);
    return line;
  }

  boolean ended() {
    return lines.peek() != null && lines.peek().equals(EOF);
  }

  /** Every line read so far. */
  List<String> seen() {
    return seen;
  }

  /** SIGKILL, then drains what the worker printed before it died. */
  void kill() throws InterruptedException {
    process.toHandle().destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
    drain();
  }

  /** Waits for the process to exit on its own, up to {@code timeoutMs}; false if it did not. */
  boolean awaitExit(long timeoutMs) throws InterruptedException {
    boolean exited = process.waitFor(timeoutMs, TimeUnit.MILLISECONDS);
    if (exited) {
      drain();
    }
    return exited;
  }

  int exitCode() {
    return process.exitValue();
  }

  private void drain() throws InterruptedException {
    String line;
    while ((line = next(5_000)) != null) {
      // recorded in seen
      if (line.isEmpty()) {
        continue;
      }
    }
  }

  private static Class<?> load(String name) {
    try {
      return Class.forName(name, false, WorkerProcess.class.getClassLoader());
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
