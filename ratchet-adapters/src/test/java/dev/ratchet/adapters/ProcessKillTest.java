package dev.ratchet.adapters;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.store.Fence;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real process death inside the workspace adapter's crash window (a child JVM halts): the workspace
 * journal and files alone prove what happened, and a retry with the same key never repeats the
 * effect. The reference service's half is ratchet-harness's ServiceKillTest.
 */
class ProcessKillTest {
  @TempDir Path dir;

  private static Process child(String... args) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> argv =
        new java.util.ArrayList<>(
            List.of(
                java,
                "-XX:TieredStopAtLevel=1",
                "-Xshare:auto",
                "-cp",
                System.getProperty("java.class.path"),
                ChildProcess.class.getName()));
    argv.addAll(List.of(args));
    return new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.INHERIT).start();
  }

  @Test
  void aWorkspaceWriterKilledBetweenRenameAndReceiptIsReconciledByTheNextProcess()
      throws Exception {
    Path root = dir.resolve("ws");
    java.nio.file.Files.createDirectories(root);
    Workspaces.put(root, "log.txt", "");
    Process p = child("workspace", root.toString(), "k1");
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isEqualTo(ChildProcess.HALTED);
    assertThat(Workspaces.read(root.resolve("log.txt"))).isEqualTo("A\n");

    try (WorkspaceAdapter ws = Workspaces.builder(root, Workspaces.clock()).open()) {
      WriteIntent append = Workspaces.append("log.txt", "A\n", "");
      Receipt r = ws.lookup("k1").orElseThrow();
      assertThat(r.intentDigest()).isEqualTo(append.digest());
      assertThat(r.fingerprintAfter()).isEqualTo(ws.observe().stateFingerprint());
      AdapterOutcome retry =
          ws.execute(append, "k1", new Fence("run-1", "parent", 2), ApprovalBinding.NONE);
      assertThat(retry.kind()).isEqualTo(AdapterOutcome.Kind.REPLAYED);
    }
    assertThat(Workspaces.read(root.resolve("log.txt"))).isEqualTo("A\n");
  }
}
