package dev.ratchet.bench;

/**
 * The benchmark's only reading of a timer. The runtime under test gets its clock through the {@code
 * Seams}; the harness needs a monotonic timer to measure it, and reads it here and nowhere else (an
 * ArchUnit rule keeps it so).
 */
final class Stopwatch {
  private final long start = System.nanoTime();

  static Stopwatch start() {
    return new Stopwatch();
  }

  static long nanos() {
    return System.nanoTime();
  }

  long elapsedNanos() {
    return System.nanoTime() - start;
  }

  double elapsedSeconds() {
    return elapsedNanos() / 1e9;
  }
}
