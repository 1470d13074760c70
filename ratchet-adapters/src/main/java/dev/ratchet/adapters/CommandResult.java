package dev.ratchet.adapters;

import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import java.util.List;
import java.util.Objects;

/**
 * What one allowlisted command did: its exit code (-1 when killed on timeout) and the first bytes
 * of each output stream, with whether more was discarded, and where it ran ({@code sandbox}:
 * {@value CommandSandbox#BUBBLEWRAP}, or {@value CommandSandbox#NONE} under the operator's
 * opt-out).
 */
public record CommandResult(
    String name,
    List<String> argv,
    int exitCode,
    boolean timedOut,
    String stdout,
    boolean stdoutTruncated,
    String stderr,
    boolean stderrTruncated,
    String sandbox) {
  public CommandResult {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(sandbox, "sandbox");
    argv = List.copyOf(argv);
    Objects.requireNonNull(stdout, "stdout");
    Objects.requireNonNull(stderr, "stderr");
  }

  /** Exit code 0 within the time limit. */
  public boolean succeeded() {
    return exitCode == 0 && !timedOut;
  }

  public JsonObject toJson() {
    return JsonObject.builder()
        .put("command", name)
        .put("argv", new JsonArray(argv.stream().<JsonValue>map(JsonString::new).toList()))
        .put("exit_code", exitCode)
        .put("timed_out", timedOut)
        .put("stdout", stdout)
        .put("stdout_truncated", stdoutTruncated)
        .put("stderr", stderr)
        .put("stderr_truncated", stderrTruncated)
        .put("sandbox", sandbox)
        .build();
  }
}
