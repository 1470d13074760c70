package dev.ratchet.adapters.internal;

import dev.ratchet.adapters.CommandSandbox;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonBool;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The command sandbox a host gives a workspace's commands (SPEC D27): bubblewrap unless the
 * operator set {@value CommandSandbox#OPT_OUT_VARIABLE}={@value CommandSandbox#OPT_OUT_VALUE},
 * which is printed on stderr (once per process) and traced with every command's evidence; the
 * network only when {@code task.environment.network} is true; the Ratchet home hidden when it lies
 * inside the workspace.
 */
final class CommandSandboxes {
  private static final AtomicBoolean WARNED = new AtomicBoolean();

  private CommandSandboxes() {}

  static CommandSandbox fromEnvironment(JsonObject environment) {
    CommandSandbox s = CommandSandbox.fromEnvironment(System.getenv());
    if (!s.sandboxed() && WARNED.compareAndSet(false, true)) {
      System.err.println(
          "ratchet: WARNING: "
              + CommandSandbox.OPT_OUT_VARIABLE
              + "="
              + CommandSandbox.OPT_OUT_VALUE
              + ": allowlisted commands run WITHOUT the bubblewrap sandbox, with this worker's"
              + " environment, files and privileges (traced as sandbox \"none\")");
    }
    JsonValue network = environment.get("network").orElse(JsonBool.FALSE);
    if (!(network instanceof JsonBool allowed)) {
      throw RatchetException.contract("task.environment.network: must be true or false");
    }
    // The host's Ratchet home (the command line's RATCHET_HOME, default ./.ratchet).
    String home = System.getenv("RATCHET_HOME");
    Path homeDir = Path.of(home == null || home.isBlank() ? ".ratchet" : home);
    return s.withNetwork(allowed.value()).hiding(homeDir);
  }
}
