package dev.ratchet.harness.crash;

import dev.ratchet.error.RatchetException;
import dev.ratchet.ops.PgRole;
import dev.ratchet.ops.Settings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The arguments of a crash entry point: {@code --name value} (or {@code --name=value}) pairs (a
 * name may repeat), flags and positionals, with the store options every command shares. Only tests
 * and the harness pass them.
 */
final class Args {
  private final Map<String, List<String>> values = new HashMap<>();
  private final List<String> flags = new ArrayList<>();
  private final List<String> positional = new ArrayList<>();

  private Args() {}

  static Args parse(String[] args, Set<String> flagNames) {
    Args a = new Args();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      int eq = arg.indexOf('=');
      if (arg.startsWith("--") && eq > 0) {
        a.values
            .computeIfAbsent(arg.substring(0, eq), k -> new ArrayList<>())
            .add(arg.substring(eq + 1));
      } else if (flagNames.contains(arg)) {
        a.flags.add(arg);
      } else if (arg.startsWith("--")) {
        if (i + 1 == args.length) {
          throw RatchetException.contract(arg + ": needs a value");
        }
        a.values.computeIfAbsent(arg, k -> new ArrayList<>()).add(args[++i]);
      } else {
        a.positional.add(arg);
      }
    }
    return a;
  }

  String get(String name, String otherwise) {
    List<String> v = values.get(name);
    return v == null ? otherwise : v.get(v.size() - 1);
  }

  List<String> all(String name) {
    return values.getOrDefault(name, List.of());
  }

  boolean flag(String name) {
    return flags.contains(name);
  }

  List<String> positional() {
    return positional;
  }

  /** The shared store options, connecting as {@code command}'s PostgreSQL role (D21). */
  Settings settings(String command) {
    return new Settings(
        path("--home"),
        get("--store", null),
        get("--mark-store", null),
        all("--key-file").stream().map(Path::of).toList(),
        path("--approvers"),
        path("--reviewers"),
        null,
        PgRole.forCommand(command));
  }

  private Path path(String name) {
    String v = get(name, null);
    return v == null ? null : Path.of(v);
  }
}
