package dev.ratchet.chaos;

import dev.ratchet.cli.Main;
import dev.ratchet.ops.Services;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * A child JVM that runs {@code ratchet} command lines read from stdin (one per line, arguments
 * separated by tabs) through the CLI's own {@link Main#execute}, so that a thousand {@code submit}
 * do not start a thousand JVMs. Its environment carries the PostgreSQL login, as the CLI reads it
 * from nowhere else. After each command it prints the command's output, then {@code EXIT <code>}.
 */
public final class FleetCliLoop {
  static final String EXIT = "EXIT ";

  private FleetCliLoop() {}

  public static void main(String[] args) throws IOException {
    Services services = Services.standard();
    PrintStream stdout = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      ByteArrayOutputStream buf = new ByteArrayOutputStream();
      int code;
      try (PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
        code = Main.execute(line.split("\t"), out, out, services);
      }
      for (String l : buf.toString(StandardCharsets.UTF_8).split("\n")) {
        if (!l.isBlank()) {
          stdout.println("| " + l);
        }
      }
      stdout.println(EXIT + code);
    }
  }
}
