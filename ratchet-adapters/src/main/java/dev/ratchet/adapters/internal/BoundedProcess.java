package dev.ratchet.adapters.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one argv (never through a shell) in a directory with a wall-clock timeout and a cap on the
 * output kept from each stream. Output beyond the cap is read and discarded, so a chatty child can
 * never block on a full pipe; on timeout the child and all its descendants are killed.
 */
public final class BoundedProcess {
  private BoundedProcess() {}

  /** What a finished (or killed) process left behind. */
  public record Outcome(
      int exitCode,
      boolean timedOut,
      String stdout,
      long stdoutBytes,
      String stderr,
      long stderrBytes,
      int keptBytes) {
    public boolean stdoutTruncated() {
      return stdoutBytes > keptBytes;
    }

    public boolean stderrTruncated() {
      return stderrBytes > keptBytes;
    }
  }

  public static Outcome run(
      List<String> argv, Path dir, Map<String, String> env, Duration timeout, int maxKeptBytes)
      throws IOException {
    return run(argv, dir, env, false, timeout, maxKeptBytes);
  }

  /**
   * As {@link #run}, but the child inherits none of this process's variables: only a system PATH
   * and {@code env} (no {@code GIT_*}, no {@code RATCHET_*}, no database URL).
   */
  public static Outcome runIsolated(
      List<String> argv, Path dir, Map<String, String> env, Duration timeout, int maxKeptBytes)
      throws IOException {
    return run(argv, dir, env, true, timeout, maxKeptBytes);
  }

  private static Outcome run(
      List<String> argv,
      Path dir,
      Map<String, String> env,
      boolean isolated,
      Duration timeout,
      int maxKeptBytes)
      throws IOException {
    ProcessBuilder pb = new ProcessBuilder(argv).directory(dir.toFile());
    if (isolated) {
      pb.environment().clear();
      pb.environment().put("PATH", "/usr/local/bin:/usr/bin:/bin");
    }
    pb.environment().putAll(env);
    pb.redirectInput(ProcessBuilder.Redirect.PIPE);
    Process p = pb.start();
    p.getOutputStream().close();
    Drain out = new Drain(p.getInputStream(), maxKeptBytes);
    Drain err = new Drain(p.getErrorStream(), maxKeptBytes);
    out.start();
    err.start();
    boolean finished;
    try {
      finished = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (!finished) {
        // Kill the whole tree: a grandchild holding the pipe would otherwise keep the drains alive.
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        p.waitFor();
      }
      out.join(5_000);
      err.join(5_000);
    } catch (InterruptedException e) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for " + argv.get(0), e);
    }
    return new Outcome(
        finished ? p.exitValue() : -1,
        !finished,
        out.text(),
        out.total(),
        err.text(),
        err.total(),
        maxKeptBytes);
  }

  /** Reads a stream to its end, keeping only the first {@code max} bytes. */
  private static final class Drain extends Thread {
    private final InputStream in;
    private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
    private final int max;
    private long total;

    Drain(InputStream in, int max) {
      this.in = in;
      this.max = max;
      setDaemon(true);
      setName("ratchet-process-drain");
    }

    @Override
    public void run() {
      byte[] buf = new byte[8192];
      try (in) {
        int n;
        while ((n = in.read(buf)) >= 0) {
          synchronized (this) {
            int keep = (int) Math.min(n, Math.max(0, max - total));
            kept.write(buf, 0, keep);
            total += n;
          }
        }
      } catch (IOException e) {
        // The process was killed and its pipe closed: what was read so far is the output.
      }
    }

    synchronized String text() {
      return kept.toString(StandardCharsets.UTF_8);
    }

    synchronized long total() {
      return total;
    }
  }
}
