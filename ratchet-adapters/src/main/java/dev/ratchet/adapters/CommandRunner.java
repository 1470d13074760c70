package dev.ratchet.adapters;

import dev.ratchet.adapters.internal.BoundedProcess;
import dev.ratchet.adapters.internal.Bubblewrap;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Runs allowlisted commands — build, test — in a workspace. A command is chosen by name only; its
 * argv is fixed by whoever configured the runner, so an agent can neither add arguments nor reach a
 * shell (SPEC §5, issue #6). Every run has a wall-clock timeout (the process tree is killed) and
 * keeps at most {@code maxOutputBytes} of each output stream.
 *
 * <p>Every command runs inside the {@link CommandSandbox} (bubblewrap by default, SPEC D27): the
 * allowlist names programs, it is not a sandbox by itself ({@code python3 -c …} can do anything the
 * sandbox allows). Without a working bubblewrap a command is refused with {@code PERMISSION} unless
 * the runner was built with the operator's explicit opt-out.
 *
 * <p>A command cannot be fenced: once started it runs to its end or its timeout even if the lease
 * that allowed it is taken over meanwhile, and whatever it writes is not a conditional write. That
 * is why a command's result is only verifier evidence, bound to the workspace revision and
 * fingerprint it ran on, never a receipt.
 */
public final class CommandRunner {
  /** Programs that interpret their arguments as commands: never allowlisted as argv[0]. */
  private static final Set<String> LAUNCHERS =
      Set.of(
          "sh",
          "bash",
          "dash",
          "zsh",
          "ksh",
          "csh",
          "tcsh",
          "fish",
          "ash",
          "busybox",
          "env",
          "xargs",
          "nohup",
          "nice",
          "timeout",
          "sudo",
          "su",
          "doas",
          "eval",
          "exec",
          "cmd",
          "cmd.exe",
          "powershell",
          "pwsh");

  private final Map<String, List<String>> allowed;
  private final Duration timeout;
  private final int maxOutputBytes;
  private final Map<String, String> environment;
  private final CommandSandbox sandbox;

  private CommandRunner(Builder b) {
    this.sandbox = b.sandbox;
    this.allowed = Map.copyOf(b.allowed);
    this.timeout = b.timeout;
    this.maxOutputBytes = b.maxOutputBytes;
    this.environment = Map.copyOf(b.environment);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The allowlisted command names. */
  public Set<String> names() {
    return allowed.keySet();
  }

  public Duration timeout() {
    return timeout;
  }

  /** Where commands run. */
  public CommandSandbox sandbox() {
    return sandbox;
  }

  /** Runs the command allowlisted as {@code name} in {@code dir}; PERMISSION for any other name. */
  public CommandResult run(String name, Path dir) {
    return run(name, dir, List.of());
  }

  /**
   * As {@link #run(String, Path)}, with {@code hidden} paths inside {@code dir} made invisible to
   * the command (the workspace adapter's control directory). PERMISSION when the sandbox is
   * required and bubblewrap is missing or cannot start.
   */
  public CommandResult run(String name, Path dir, List<Path> hidden) {
    List<String> argv = allowed.get(name);
    if (argv == null) {
      throw new RatchetException(
          ErrorCode.PERMISSION, "command: '" + name + "' is not an allowlisted command");
    }
    List<String> cmd = argv;
    Map<String, String> env = environment;
    String where = CommandSandbox.NONE;
    if (sandbox.sandboxed()) {
      String unavailable = Bubblewrap.unavailableReason(sandbox.bubblewrap());
      if (unavailable != null) {
        throw new RatchetException(
            ErrorCode.PERMISSION,
            "command '"
                + name
                + "' refused: commands run only inside a bubblewrap sandbox (SPEC D27), and "
                + unavailable
                + ". Install bubblewrap, or opt out explicitly with "
                + CommandSandbox.OPT_OUT_VARIABLE
                + "="
                + CommandSandbox.OPT_OUT_VALUE);
      }
      Path root = dir.toAbsolutePath().normalize();
      if (!inSandboxPath(argv.get(0), root)) {
        return new CommandResult(
            name,
            argv,
            127,
            false,
            "",
            false,
            "program not found: " + argv.get(0),
            false,
            CommandSandbox.BUBBLEWRAP);
      }
      List<Path> hide = new ArrayList<>(sandbox.hidden());
      hidden.forEach(h -> hide.add(h.toAbsolutePath().normalize()));
      Path bwrap = sandbox.bubblewrap() == null ? Bubblewrap.find() : sandbox.bubblewrap();
      cmd = Bubblewrap.wrap(bwrap, root, hide, sandbox.network(), environment, argv);
      env = Map.of();
      where = CommandSandbox.BUBBLEWRAP;
    }
    try {
      BoundedProcess.Outcome o = BoundedProcess.run(cmd, dir, env, timeout, maxOutputBytes);
      return new CommandResult(
          name,
          argv,
          o.exitCode(),
          o.timedOut(),
          o.stdout(),
          o.stdoutTruncated(),
          o.stderr(),
          o.stderrTruncated(),
          where);
    } catch (IOException e) {
      // The program could not be started (missing, not executable): a failed run, not a crash.
      return new CommandResult(name, argv, 127, false, "", false, e.getMessage(), false, where);
    }
  }

  /** Whether {@code program} is an executable the sandbox's PATH (or the workspace) holds. */
  private static boolean inSandboxPath(String program, Path root) {
    if (program.indexOf('/') >= 0) {
      Path p = root.resolve(program).normalize();
      boolean visible =
          p.startsWith(root)
              || p.startsWith("/usr")
              || p.startsWith("/bin")
              || p.startsWith("/lib");
      return visible && Files.isRegularFile(p) && Files.isExecutable(p);
    }
    for (String d : List.of("/usr/local/bin", "/usr/bin", "/bin")) {
      Path p = Path.of(d, program);
      if (Files.isRegularFile(p) && Files.isExecutable(p)) {
        return true;
      }
    }
    return false;
  }

  /** Configures a runner; nothing is allowed until {@link #allow} says so. */
  public static final class Builder {
    private final Map<String, List<String>> allowed = new LinkedHashMap<>();
    private Duration timeout = Duration.ofMinutes(2);
    private int maxOutputBytes = 64 * 1024;
    private final Map<String, String> environment = new LinkedHashMap<>();
    private CommandSandbox sandbox = CommandSandbox.required();

    private Builder() {}

    /** Where commands run (default {@link CommandSandbox#required()}: bubblewrap, no network). */
    public Builder sandbox(CommandSandbox s) {
      this.sandbox = Objects.requireNonNull(s);
      return this;
    }

    /**
     * Allowlists {@code argv} under {@code name}. argv[0] must not be a shell or a launcher (env,
     * xargs, sudo, ...): those would turn one allowlisted entry into any command.
     */
    public Builder allow(String name, List<String> argv) {
      dev.ratchet.json.Text.require("command name", name);
      List<String> copy = List.copyOf(argv);
      if (copy.isEmpty() || copy.stream().anyMatch(a -> a.indexOf('\0') >= 0)) {
        throw RatchetException.contract("command '" + name + "': argv must be non-empty, no NUL");
      }
      String program = Path.of(copy.get(0)).getFileName().toString();
      if (LAUNCHERS.contains(program)) {
        throw RatchetException.contract(
            "command '"
                + name
                + "': '"
                + program
                + "' is a shell or launcher; allowlist the program itself");
      }
      allowed.put(name, copy);
      return this;
    }

    public Builder timeout(Duration t) {
      if (t.isNegative() || t.isZero()) {
        throw new IllegalArgumentException("timeout must be positive");
      }
      this.timeout = t;
      return this;
    }

    public Builder maxOutputBytes(int n) {
      if (n < 0) {
        throw new IllegalArgumentException("maxOutputBytes must be >= 0");
      }
      this.maxOutputBytes = n;
      return this;
    }

    /**
     * An environment variable for every command: inside the sandbox the only ones besides PATH,
     * LANG, HOME and TMPDIR; without it, added to the worker's own environment.
     */
    public Builder environment(String name, String value) {
      environment.put(Objects.requireNonNull(name), Objects.requireNonNull(value));
      return this;
    }

    public CommandRunner build() {
      return new CommandRunner(this);
    }
  }
}
