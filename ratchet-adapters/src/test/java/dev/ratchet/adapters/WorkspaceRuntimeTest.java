package dev.ratchet.adapters;

import static dev.ratchet.adapters.Workspaces.sha;

import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.json.JsonObject;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.testkit.RuntimeFixture;
import dev.ratchet.testkit.SeededEntropy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime with the workspace adapter on a real directory: fix a file, append two log lines (not
 * idempotent), verify the expected files, finish. The ledger is the files themselves.
 */
class WorkspaceRuntimeTest extends RuntimeCrashMatrix {
  static final String BROKEN = "print('hello'\n";
  static final String FIXED = "print('ready')\n";

  @TempDir Path base;
  private WorkspaceAdapter open;

  @Override
  protected TaskSpec task(long cell, Set<String> approvalRequired) {
    return new TaskSpec(
        "repair-greeting-on-disk",
        "v1",
        "environment-policy",
        "v1",
        WorkspaceAdapter.NAMESPACE,
        Set.of("workspace.read", "workspace.write", "tests.run"),
        Set.of("read_file", "write_file", "append_file", "run_tests"),
        Set.of("app.py", "log.txt", "unit"),
        approvalRequired,
        budgets(),
        JsonObject.builder()
            .put("files", JsonObject.builder().put("app.py", BROKEN).build())
            .build(),
        JsonObject.builder()
            .put(
                "expected_files",
                JsonObject.builder().put("app.py", FIXED).put("log.txt", "first\nsecond\n").build())
            .build());
  }

  @Override
  protected List<Step> writes(long cell) {
    return List.of(
        new Step("write_file", args("app.py", FIXED, BROKEN)),
        new Step("append_file", args("log.txt", "first\n", "")),
        new Step("append_file", args("log.txt", "second\n", "first\n")));
  }

  private static JsonObject args(String path, String content, String expected) {
    return JsonObject.builder()
        .put("path", path)
        .put("content", content)
        .put("expected_sha256", sha(expected))
        .build();
  }

  @Override
  protected Step verification(long cell) {
    return new Step("run_tests", JsonObject.builder().put("target", "unit").build());
  }

  private Path root(long cell) {
    return base.resolve("ws-" + cell);
  }

  @Override
  protected EnvironmentAdapter openEnvironment(long cell, RuntimeFixture f, CrashSeam seam) {
    try {
      Files.createDirectories(root(cell));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Workspaces.put(root(cell), "app.py", BROKEN);
    Workspaces.put(root(cell), "log.txt", "");
    return reopenEnvironment(cell, f, seam);
  }

  @Override
  protected EnvironmentAdapter reopenEnvironment(long cell, RuntimeFixture f, CrashSeam seam) {
    closeEnvironment();
    open =
        WorkspaceAdapter.builder(root(cell))
            .clock(f.clock)
            .entropy(new SeededEntropy(cell))
            .crashSeam(seam)
            .open();
    return open;
  }

  @Override
  protected List<String> ledgerProblems(long cell) {
    List<String> problems = new ArrayList<>();
    String log = Workspaces.read(root(cell).resolve("log.txt"));
    if (!log.equals("first\nsecond\n")) {
      problems.add("log.txt is " + log.replace("\n", "\\n"));
    }
    String app = Workspaces.read(root(cell).resolve("app.py"));
    if (!app.equals(FIXED)) {
      problems.add("app.py is " + app);
    }
    return problems;
  }

  @Override
  protected void closeEnvironment() {
    if (open != null) {
      open.close();
      open = null;
    }
  }
}
