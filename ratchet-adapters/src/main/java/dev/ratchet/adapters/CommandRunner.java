package dev.ratchet.adapters;

import dev.ratchet.adapters.internal.BoundedProcess;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
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

  private CommandRunner(Builder b) {
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

  /** Runs the command allowlisted as {@code name} in {@code dir}; PERMISSION for any other name. */
  public CommandResult run(String name, Path dir) {
    List<String> argv = allowed.get(name);
    if (argv == null) {
      throw new RatchetException(
          ErrorCode.PERMISSION, "command: '" + name + "' is not an allowlisted command");
    }
    try {
      BoundedProcess.Outcome o =
          BoundedProcess.run(argv, dir, environment, timeout, maxOutputBytes);
      return new CommandResult(
          name,
          argv,
          o.exitCode(),
          o.timedOut(),
          o.stdout(),
          o.stdoutTruncated(),
          o.stderr(),
          o.stderrTruncated());
    } catch (IOException e) {
      // The program could not be started (missing, not executable): a failed run, not a crash.
      return new CommandResult(name, argv, 127, false, "", false, e.getMessage(), false);
    }
  }

  /** Configures a runner; nothing is allowed until {@link #allow} says so. */
  public static final class Builder {
    private final Map<String, List<String>> allowed = new LinkedHashMap<>();
    private Duration timeout = Duration.ofMinutes(2);
    private int maxOutputBytes = 64 * 1024;
    private final Map<String, String> environment = new LinkedHashMap<>();

    private Builder() {}

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

    /** Extra environment variables for every command (the runner's own environment is kept). */
    public Builder environment(String name, String value) {
      environment.put(Objects.requireNonNull(name), Objects.requireNonNull(value));
      return this;
    }

    public CommandRunner build() {
      return new CommandRunner(this);
    }
  }
}
