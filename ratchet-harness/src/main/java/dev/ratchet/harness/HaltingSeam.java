package dev.ratchet.harness;

import dev.ratchet.seam.CrashPoint;
import dev.ratchet.seam.CrashSeam;
import java.io.PrintWriter;

/**
 * The crash seam of a demo worker process. Once {@link #arm}ed, at its point it tells the parent
 * ({@code CRASH <point>} on stdout) and waits to be killed with SIGKILL; if no kill comes it halts
 * the JVM itself with status 137. Either way the process dies there for real: no finally block,
 * shutdown hook or buffered write runs.
 */
public final class HaltingSeam implements CrashSeam {
  public static final String MARKER = "CRASH ";
  private static final long WAIT_FOR_KILL_MS = 10_000;

  private final CrashPoint armed;
  private final PrintWriter out;
  private volatile boolean live;

  public HaltingSeam(CrashPoint armed, PrintWriter out) {
    this.armed = armed;
    this.out = out;
  }

  /** From now on the armed point kills the process (recovery itself runs disarmed). */
  public void arm() {
    live = true;
  }

  @Override
  public void reached(CrashPoint point) {
    if (!live || point != armed) {
      return;
    }
    out.println(MARKER + point.name());
    out.flush();
    try {
      Thread.sleep(WAIT_FOR_KILL_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    Runtime.getRuntime().halt(137);
  }
}
