package dev.ratchet.cli.internal;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One demo worker: a child JVM running {@code ratchet worker} from the same class path. The parent
 * reads its event lines; on {@code CRASH <point>} it kills the child with SIGKILL ({@link
 * Process#destroyForcibly()} on Linux) and waits for it to die.
 */
public final class WorkerProcess {
  /** How a worker ended. */
  public record Ended(
      boolean killed, String crashPoint, int exitCode, String recoveryJson, List<String> lines) {}

  /** Called when the worker waits for an approval of this action. */
  public interface Approver {
    void approve(String actionId);
  }

  private WorkerProcess() {}

  /** The command that starts {@code ratchet <args>} in a fresh JVM on this class path. */
  public static List<String> command(List<String> args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-XX:TieredStopAtLevel=1");
    cmd.add("-Xshare:auto");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add("dev.ratchet.cli.Main");
    cmd.addAll(args);
    return cmd;
  }

  /** Runs a worker to its end, forwarding its progress lines and answering approval waits. */
  public static Ended run(
      List<String> args,
      Consumer<String> progress,
      Consumer<String> recoveries,
      Approver approver) {
    ProcessBuilder pb = new ProcessBuilder(command(args)).redirectErrorStream(true);
    Process p;
    try {
      p = pb.start();
    } catch (IOException e) {
      throw new RatchetException(
          ErrorCode.INTERNAL, "cannot start a worker JVM: " + e.getMessage());
    }
    List<String> lines = new ArrayList<>();
    String crash = null;
    String recovery = null;
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        lines.add(line);
        if (line.startsWith(HaltingSeam.MARKER)) {
          crash = line.substring(HaltingSeam.MARKER.length()).strip();
          p.destroyForcibly();
          break;
        } else if (line.startsWith("RECOVERY ")) {
          recovery = line.substring("RECOVERY ".length());
          recoveries.accept(recovery);
        } else if (line.startsWith("STEP ")) {
          progress.accept(line.substring("STEP ".length()));
        } else if (line.startsWith("AWAITING ")) {
          approver.approve(line.substring("AWAITING ".length()).strip());
        }
      }
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new RatchetException(ErrorCode.INTERNAL, "a worker did not end within a minute");
      }
    } catch (IOException e) {
      p.destroyForcibly();
      throw new RatchetException(ErrorCode.INTERNAL, "lost a worker's output: " + e.getMessage());
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new RatchetException(ErrorCode.INTERNAL, "interrupted while waiting for a worker");
    }
    return new Ended(crash != null, crash, p.exitValue(), recovery, List.copyOf(lines));
  }
}
