package dev.ratchet.harness;

import dev.ratchet.seam.CrashPoint;
import dev.ratchet.seam.CrashSeam;
import java.io.PrintWriter;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * For drain tests: the first time the run reaches its point, tells the parent ({@code PAUSE
 * <point>} on stdout) and holds the step there for a few seconds, so a SIGTERM lands while the step
 * is in flight; then the step goes on as if nothing happened.
 */
public final class PausingSeam implements CrashSeam {
  public static final String MARKER = "PAUSE ";
  private static final long PAUSE_MS = 3_000;

  private final CrashPoint point;
  private final PrintWriter out;
  private final AtomicBoolean paused = new AtomicBoolean();

  public PausingSeam(CrashPoint point, PrintWriter out) {
    this.point = point;
    this.out = out;
  }

  @Override
  public void reached(CrashPoint p) {
    if (p != point || !paused.compareAndSet(false, true)) {
      return;
    }
    out.println(MARKER + p.name());
    out.flush();
    try {
      Thread.sleep(PAUSE_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
