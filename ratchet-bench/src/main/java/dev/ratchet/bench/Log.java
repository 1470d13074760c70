package dev.ratchet.bench;

import java.io.PrintStream;

/** Progress lines of the harness (stderr by default; the table goes to stdout). */
final class Log {
  private final PrintStream out;

  Log(PrintStream out) {
    this.out = out;
  }

  void line(String s) {
    if (out != null) {
      out.println(s);
      out.flush();
    }
  }
}
