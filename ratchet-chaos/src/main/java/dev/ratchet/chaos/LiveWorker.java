package dev.ratchet.chaos;

import dev.ratchet.harness.ChildJvm;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One incarnation of a long-lived {@link CrashWorker} JVM: commands go to its stdin, and every line
 * it prints lands, tagged with its slot and incarnation, on the supervisor's one event queue
 * (followed by an {@code EOF} event when its stdout closes). A kill is a SIGKILL of the process.
 */
final class LiveWorker {
  /** A line a worker printed; {@code line} is {@code null} at the end of its output. */
  record Event(int slot, int incarnation, String line) {}

  private final Process process;
  private final Writer stdin;
  private final int slot;
  private final int incarnation;
  private boolean killed;

  private LiveWorker(Process process, int slot, int incarnation, BlockingQueue<Event> events) {
    this.process = process;
    this.slot = slot;
    this.incarnation = incarnation;
    this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    ChildJvm.readLines(
        process,
        "chaos-live-worker-" + slot + "-" + incarnation,
        line -> events.add(new Event(slot, incarnation, line)));
  }

  static LiveWorker start(
      Path log, int slot, int incarnation, List<String> args, BlockingQueue<Event> events)
      throws IOException {
    Process p =
        ChaosLedger.hand(new ProcessBuilder(WorkerJvm.command(CrashWorker.class, args)))
            .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    return new LiveWorker(p, slot, incarnation, events);
  }

  int slot() {
    return slot;
  }

  int incarnation() {
    return incarnation;
  }

  boolean killed() {
    return killed;
  }

  /** Sends one command line; a worker that already died is not an error (its EOF will tell). */
  void send(String command) {
    try {
      stdin.write(command + "\n");
      stdin.flush();
    } catch (IOException e) {
      // the process is gone; its reader reports the end of its output
    }
  }

  /** SIGKILL, and waits until the process is gone. */
  void kill() {
    killed = true;
    process.toHandle().destroyForcibly();
    try {
      process.waitFor(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Closes stdin so the worker finishes its runs and exits; waits up to {@code timeoutMs}. */
  boolean finish(long timeoutMs) {
    try {
      stdin.close();
      return process.waitFor(timeoutMs, TimeUnit.MILLISECONDS);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
