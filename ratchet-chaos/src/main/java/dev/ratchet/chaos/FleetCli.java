package dev.ratchet.chaos;

import dev.ratchet.harness.ChildJvm;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** The supervisor's end of a {@link FleetCliLoop} child: one {@code ratchet} command at a time. */
final class FleetCli implements AutoCloseable {
  /** One finished command: its exit code and its output lines. */
  record Result(int exit, List<String> lines) {
    String text() {
      return String.join("\n", lines);
    }
  }

  private static final String END = "\u0000END";
  private final Process process;
  private final BlockingQueue<String> out = new LinkedBlockingQueue<>();
  private final PrintWriter in;

  private FleetCli(Process process) {
    this.process = process;
    this.in =
        new PrintWriter(
            new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8), true);
    ChildJvm.readLines(process, "cli-loop-reader", l -> out.add(l == null ? END : l));
  }

  static FleetCli start(Map<String, String> env) throws IOException {
    ProcessBuilder pb =
        new ProcessBuilder(
                ChildJvm.command(
                    Fleet.JVM_OPTIONS, Fleet.classpath(), FleetCliLoop.class.getName(), List.of()))
            .redirectErrorStream(true);
    pb.environment().putAll(env);
    return new FleetCli(pb.start());
  }

  /** Runs one command line; throws if the child ended or stayed silent for two minutes. */
  Result run(String... args) throws InterruptedException {
    in.println(String.join("\t", args));
    List<String> lines = new ArrayList<>();
    while (true) {
      String line = out.poll(120, TimeUnit.SECONDS);
      if (line == null || line.equals(END)) {
        throw new IllegalStateException("the CLI child ended or hung; output: " + lines);
      }
      if (line.startsWith(FleetCliLoop.EXIT)) {
        return new Result(Integer.parseInt(line.substring(FleetCliLoop.EXIT.length())), lines);
      }
      lines.add(line);
    }
  }

  /** Runs one command line and throws unless it exits 0. */
  Result ok(String... args) throws InterruptedException {
    Result r = run(args);
    if (r.exit() != 0) {
      throw new IllegalStateException(
          "ratchet " + String.join(" ", args) + " exited " + r.exit() + ":\n" + r.text());
    }
    return r;
  }

  @Override
  public void close() {
    in.close();
    try {
      if (process.waitFor(10, TimeUnit.SECONDS)) {
        return;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    process.toHandle().destroyForcibly();
  }
}
