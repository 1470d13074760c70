package dev.ratchet.chaos;

import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.ops.KeyConfig;
import dev.ratchet.ops.PgRole;
import dev.ratchet.ops.RunViews;
import dev.ratchet.ops.Services;
import dev.ratchet.ops.Session;
import dev.ratchet.ops.Settings;
import dev.ratchet.ops.StoreFactory;
import dev.ratchet.ops.SubmittedTask;
import dev.ratchet.ops.TaskFile;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.sign.Role;
import dev.ratchet.sign.SigningKey;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A child JVM that runs the operator's {@code submit} and {@code status} read from stdin (one per
 * line, arguments as {@code ratchet} takes them, separated by tabs) through the application layer
 * (ratchet-ops, the code behind those commands), so that a thousand submissions do not start a
 * thousand JVMs. Its environment carries the PostgreSQL login, as ops reads it from nowhere else.
 * After each command it prints the command's output, then {@code EXIT <code>}.
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
      int code;
      try {
        code = execute(line.split("\t"), services, stdout);
      } catch (RatchetException e) {
        stdout.println("| " + e.code() + ": " + e.getMessage());
        code = e.code().exitCode();
      }
      stdout.println(EXIT + code);
    }
  }

  private static int execute(String[] args, Services services, PrintStream out) {
    List<String> positional = new ArrayList<>();
    Map<String, String> options = new HashMap<>();
    List<String> runIds =
        new ArrayList<>(); // one per task file, in order (submit A --run-id a B …)
    for (int i = 1; i < args.length; i++) {
      if (args[i].equals("--run-id")) {
        runIds.add(args[++i]);
      } else if (args[i].startsWith("--")) {
        options.put(args[i], args[++i]);
      } else {
        positional.add(args[i]);
      }
    }
    Settings settings =
        new Settings(
            Path.of(options.get("--home")),
            options.get("--store"),
            null,
            List.of(),
            null,
            null,
            null,
            PgRole.forCommand(args[0]));
    switch (args[0]) {
      case "submit" -> {
        if (runIds.size() != positional.size()) {
          throw RatchetException.contract(
              "--run-id: give one per task file (" + positional.size() + " files)");
        }
        SigningKey signer =
            KeyConfig.signer(
                Path.of(options.get("--operator-key")),
                null,
                settings.resolvedHome(),
                Role.OPERATOR);
        Session.preflight(settings);
        try (Session s =
            Session.open(services, settings, StoreFactory.Mode.CREATE, CrashSeam.NONE)) {
          for (int i = 0; i < positional.size(); i++) {
            TaskFile tf = TaskFile.load(Path.of(positional.get(i)), services.adapters());
            SubmittedTask.submit(s, tf, runIds.get(i), signer);
            out.println("| run " + runIds.get(i) + " submitted by " + signer.label());
          }
        }
        return 0;
      }
      case "status" -> {
        try (Session s =
            Session.open(services, settings, StoreFactory.Mode.MUST_EXIST, CrashSeam.NONE)) {
          String id = positional.get(0);
          out.println(
              "| " + Canonical.string(RunViews.status(s, s.find(id), services.clock().millis())));
        }
        return 0;
      }
      default -> throw RatchetException.contract(args[0] + ": not a command of the fleet's loop");
    }
  }
}
