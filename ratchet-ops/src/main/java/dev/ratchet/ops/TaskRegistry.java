package dev.ratchet.ops;

import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Fields;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonLimits;
import dev.ratchet.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The task files behind the runs this command line started. Recovery needs the task supplied from
 * outside the store (SPEC §1); {@code run} records a copy under {@code <home>/tasks/<sha256>.json}
 * and names it in {@code <home>/runs/<run id>.json}, so {@code resume RUN_ID} finds it. The copy is
 * only a convenience: the checkpoint signs the task's fingerprint, so an edited copy is refused by
 * verification, and {@code --task FILE} overrides it.
 */
public final class TaskRegistry {
  public static final Pattern RUN_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

  private TaskRegistry() {}

  public static String requireRunId(String runId) {
    if (!RUN_ID.matcher(runId).matches()) {
      throw RatchetException.contract(
          "RUN_ID: '" + runId + "' must be 1-64 letters, digits, '.', '_' or '-'");
    }
    return runId;
  }

  /** Records {@code task} as the task file of {@code runId} (before the run starts). */
  public static void record(Home home, String runId, TaskFile task) {
    String sha = task.sha256();
    Path copy = home.tasks().resolve(sha + ".json");
    if (!Files.exists(copy)) {
      writeAtomically(copy, Canonical.string(task.toJson()));
    }
    JsonObject index =
        JsonObject.builder()
            .put("run_id", runId)
            .put("task_id", task.task().taskId())
            .put("task_file_sha256", sha)
            .build();
    writeAtomically(home.runs().resolve(runId + ".json"), Canonical.string(index));
  }

  /** The recorded task file of {@code runId}, if this home recorded one. */
  public static Optional<TaskFile> forRun(Home home, String runId, AdapterRegistry adapters) {
    if (!RUN_ID.matcher(runId).matches()) {
      return Optional.empty();
    }
    Path indexFile = home.runs().resolve(runId + ".json");
    if (!Files.isRegularFile(indexFile)) {
      return Optional.empty();
    }
    Fields index =
        Fields.exact(
            Json.parse(read(indexFile), JsonLimits.DEFAULT),
            indexFile.toString(),
            "run_id",
            "task_id",
            "task_file_sha256");
    String sha = index.hex64("task_file_sha256");
    Path copy = home.tasks().resolve(sha + ".json");
    if (!Files.isRegularFile(copy)) {
      throw RatchetException.contract(
          indexFile + ": its task file " + copy + " is missing: pass --task TASK.json");
    }
    TaskFile task = TaskFile.parse(read(copy), copy.getParent(), adapters, "task file " + copy);
    if (!task.sha256().equals(sha)) {
      throw RatchetException.contract(
          "task file " + copy + ": content does not match its name: pass --task TASK.json");
    }
    return Optional.of(task);
  }

  private static byte[] read(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw RatchetException.contract(
          file + ": cannot be read (" + e.getClass().getSimpleName() + ")");
    }
  }

  private static void writeAtomically(Path file, String text) {
    try {
      Files.createDirectories(file.getParent(), Home.PRIVATE_DIRECTORY);
      Path tmp = Files.createTempFile(file.getParent(), ".tmp-", ".json");
      Files.writeString(tmp, text + "\n", StandardCharsets.UTF_8);
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw RatchetException.contract(
          file + ": cannot be written (" + e.getClass().getSimpleName() + ")");
    }
  }
}
