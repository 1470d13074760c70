package dev.ratchet.seam;

/**
 * Where a test injects a crash (a thrown error in-process, or {@code Runtime.halt} in a child JVM).
 * Production passes {@link #NONE}; there is no global hook.
 */
@FunctionalInterface
public interface CrashSeam {
  CrashSeam NONE = point -> {};

  void reached(CrashPoint point);
}
