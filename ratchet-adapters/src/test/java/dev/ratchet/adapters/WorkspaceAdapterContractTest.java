package dev.ratchet.adapters;

import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapter.ForwardingAdapter;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.store.Fence;
import dev.ratchet.testkit.EnvironmentAdapterContract;
import dev.ratchet.testkit.ManualClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adapter contract on a plain directory. Effects are counted in the files themselves: intent A
 * appends a line to {@code log.txt} (not naturally idempotent), intent B creates {@code other.txt}.
 */
class WorkspaceAdapterContractTest extends EnvironmentAdapterContract {
  @TempDir Path root;
  final ManualClock clock = Workspaces.clock();
  private final Map<String, WriteIntent> sent = new HashMap<>();
  private WorkspaceAdapter ws;

  /** Prepares the directory before the adapter opens (the git variant makes it a repository). */
  void prepare(Path dir) {
    Workspaces.put(dir, "log.txt", "");
  }

  @Override
  protected EnvironmentAdapter newAdapter() {
    prepare(root);
    ws = Workspaces.builder(root, clock).open();
    // Records which intent each key carried, so effects() knows what to count in the files.
    return new ForwardingAdapter(ws) {
      @Override
      public AdapterOutcome execute(
          WriteIntent intent, String key, Fence fence, ApprovalBinding approval) {
        sent.putIfAbsent(key, intent);
        return super.execute(intent, key, fence, approval);
      }
    };
  }

  @AfterEach
  void closeAdapter() {
    ws.close();
  }

  @Override
  protected WriteIntent intentA() {
    return Workspaces.append("log.txt", "entry A\n", "");
  }

  @Override
  protected WriteIntent intentB() {
    return Workspaces.write("other.txt", "B", null);
  }

  @Override
  protected int effects(String key) {
    WriteIntent i = sent.get(key);
    if (i == null) {
      return 0;
    }
    if (i.equals(intentA())) {
      return Workspaces.count(Workspaces.read(root.resolve("log.txt")), "entry A\n");
    }
    return Files.exists(root.resolve("other.txt")) ? 1 : 0;
  }

  @Override
  protected long nowMs() {
    return clock.millis();
  }
}
