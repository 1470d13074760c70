package dev.ratchet.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A worker JVM driven by a harness (the demo, the chaos campaigns): started on a given class path,
 * its stdout read line by line into a queue by a daemon thread so the harness can wait with a
 * timeout, and killed with SIGKILL through its process handle ({@link
 * ProcessHandle#destroyForcibly()} is SIGKILL on Linux).
 */
public final class ChildJvm {
  /** C1 only and class-data sharing: a worker starts fast and lives seconds. */
  public static final List<String> FAST_START = List.of("-XX:TieredStopAtLevel=1", "-Xshare:auto");

  private static final String EOF = "\u0000EOF";
  private final Process process;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final List<String> seen = new ArrayList<>();

  private ChildJvm(Process process) {
    this.process = process;
    readLines(process, "child-jvm-reader", line -> lines.add(line == null ? EOF : line));
  }

  /** Starts {@code builder} (usually from {@link #command}) and reads its output. */
  public static ChildJvm start(ProcessBuilder builder) throws IOException {
    return new ChildJvm(builder.start());
  }

  /**
   * The command line of a JVM running {@code mainClass} on {@code classpath}: this JVM's {@code
   * java}, then {@code jvmOptions}, then {@code args}.
   */
  public static List<String> command(
      List<String> jvmOptions, String classpath, String mainClass, List<String> args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmOptions);
    cmd.add("-cp");
    cmd.add(classpath);
    cmd.add(mainClass);
    cmd.addAll(args);
    return cmd;
  }

  /**
   * Hands every line {@code process} prints to {@code sink} on a daemon thread, then {@code null}
   * at the end of its output (a read error arrives as a {@code READ-ERROR} line first).
   */
  public static void readLines(Process process, String threadName, Consumer<String> sink) {
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

  /** The next line, or null at the end of the output or after {@code timeoutMs}. */
  public String next(long timeoutMs) throws InterruptedException {
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

  /** Whether the whole output has been read. */
  public boolean ended() {
    return EOF.equals(lines.peek());
  }

  /** Every line read so far. */
  public List<String> seen() {
    return seen;
  }

  /** SIGKILL, then drains what the worker printed before it died. */
  public void kill() throws InterruptedException {
    process.toHandle().destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
    drain();
  }

  /** Waits for the process to exit on its own, up to {@code timeoutMs}; false if it did not. */
  public boolean awaitExit(long timeoutMs) throws InterruptedException {
    boolean exited = process.waitFor(timeoutMs, TimeUnit.MILLISECONDS);
    if (exited) {
      drain();
    }
    return exited;
  }

  public int exitCode() {
    return process.exitValue();
  }

  private void drain() throws InterruptedException {
    while (next(5_000) != null) {
      // recorded in seen
    }
  }
}
