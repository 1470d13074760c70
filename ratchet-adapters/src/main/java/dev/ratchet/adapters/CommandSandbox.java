package dev.ratchet.adapters;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Where allowlisted commands run (SPEC D27): inside a {@code bubblewrap} sandbox by default, with
 * an empty environment plus an allowlist, every namespace unshared (the network too unless {@link
 * #withNetwork} says otherwise), uid/gid 65534 in a new user namespace with every capability
 * dropped, the workspace read-write except its control directory, system directories read-only, and
 * nothing else of the host — so neither the Ratchet home, nor key files, nor the store.
 *
 * <p>A bubblewrap that is missing or cannot start counts as absent; then commands are refused
 * ({@code PERMISSION}) unless the operator opted out explicitly with {@link #unsandboxed()} — on
 * the command line the environment variable {@value #OPT_OUT_VARIABLE}={@value #OPT_OUT_VALUE}. The
 * command allowlist names programs; it is not a sandbox by itself ({@code python3 -c …} can do
 * anything the sandbox allows).
 */
public final class CommandSandbox {
  /** The operator's explicit opt-out of the sandbox (command line and workers). */
  public static final String OPT_OUT_VARIABLE = "RATCHET_UNSANDBOXED_COMMANDS";

  /** The one value of {@link #OPT_OUT_VARIABLE} that opts out. */
  public static final String OPT_OUT_VALUE = "i-understand";

  /** The value of a command result's {@code sandbox} field when it ran without one. */
  public static final String NONE = "none";

  /** The value of a command result's {@code sandbox} field when it ran inside bubblewrap. */
  public static final String BUBBLEWRAP = "bubblewrap";

  private final boolean sandboxed;
  private final boolean network;
  private final List<Path> hidden;
  private final Path program;

  private CommandSandbox(boolean sandboxed, boolean network, List<Path> hidden, Path program) {
    this.sandboxed = sandboxed;
    this.network = network;
    this.hidden = List.copyOf(hidden);
    this.program = program;
  }

  /** Bubblewrap required, no network (the default). */
  public static CommandSandbox required() {
    return new CommandSandbox(true, false, List.of(), null);
  }

  /** The explicit opt-out: commands run as the worker's own process, with its rights. */
  public static CommandSandbox unsandboxed() {
    return new CommandSandbox(false, false, List.of(), null);
  }

  /**
   * {@link #unsandboxed()} when {@code env} holds {@value #OPT_OUT_VARIABLE}={@value
   * #OPT_OUT_VALUE}, else {@link #required()}; any other value of the variable is refused, so a
   * typo never opts out silently.
   */
  public static CommandSandbox fromEnvironment(Map<String, String> env) {
    String v = env.get(OPT_OUT_VARIABLE);
    if (v == null || v.isEmpty()) {
      return required();
    }
    if (!OPT_OUT_VALUE.equals(v)) {
      throw dev.ratchet.error.RatchetException.contract(
          OPT_OUT_VARIABLE + ": the only accepted value is '" + OPT_OUT_VALUE + "'");
    }
    return unsandboxed();
  }

  /** The same sandbox with the network namespace shared (a task that needs the network). */
  public CommandSandbox withNetwork(boolean allowed) {
    return new CommandSandbox(sandboxed, allowed, hidden, program);
  }

  /**
   * The same sandbox with {@code path} made invisible when it lies inside the workspace (an empty
   * read-only directory over a directory, an empty file over a file): the Ratchet home, a store.
   */
  public CommandSandbox hiding(Path path) {
    List<Path> more = new ArrayList<>(hidden);
    more.add(Objects.requireNonNull(path).toAbsolutePath().normalize());
    return new CommandSandbox(sandboxed, network, more, program);
  }

  /**
   * The same sandbox run by the {@code bwrap} program at {@code bwrap} instead of the one on the
   * worker's PATH. A path that does not exist or cannot start a sandbox counts as absent.
   */
  public CommandSandbox withBubblewrap(Path bwrap) {
    return new CommandSandbox(sandboxed, network, hidden, Objects.requireNonNull(bwrap));
  }

  /** The bwrap program named by {@link #withBubblewrap}, or null for the one on PATH. */
  public Path bubblewrap() {
    return program;
  }

  public boolean sandboxed() {
    return sandboxed;
  }

  public boolean network() {
    return network;
  }

  public List<Path> hidden() {
    return hidden;
  }

  @Override
  public String toString() {
    return sandboxed ? BUBBLEWRAP + (network ? " (network)" : "") : NONE;
  }
}
