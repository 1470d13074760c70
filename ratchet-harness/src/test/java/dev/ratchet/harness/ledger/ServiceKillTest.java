package dev.ratchet.harness.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.adapters.IdempotentHttpAdapter;
import dev.ratchet.adapters.LedgerApi;
import dev.ratchet.adapters.Ledgers;
import dev.ratchet.adapters.Workspaces;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.store.Fence;
import dev.ratchet.testkit.SeededEntropy;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real process death inside the reference service's crash window (a child JVM halts after its
 * commit, before the response): the service's SQLite ledger alone proves what happened, and a retry
 * with the same key never repeats the effect.
 */
class ServiceKillTest {
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
                ServiceChild.class.getName()));
    argv.addAll(List.of(args));
    return new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.INHERIT).start();
  }

  @Test
  void aServiceKilledBetweenCommitAndResponseKeepsTheReceiptForLookup() throws Exception {
    Path db = dir.resolve("ledger.db");
    Process p = child(db.toString());
    int port;
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      port = Integer.parseInt(out.readLine().trim());
      IdempotentHttpAdapter client =
          IdempotentHttpAdapter.builder(URI.create("http://127.0.0.1:" + port), LedgerApi.NAMESPACE)
              .actions(LedgerApi.actions())
              .clientSecret(LedgerApi.clientSecret(Path.of(db + ".client-secret")))
              .build();
      WriteIntent order = Ledgers.createOrder("acct-1", "sku", 1, 100);
      assertThatThrownBy(
              () -> client.execute(order, "k1", new Fence("run-1", "w", 1), ApprovalBinding.NONE))
          .isInstanceOfSatisfying(
              RatchetException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE));
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).isEqualTo(ServiceChild.HALTED);
    }

    try (ReferenceService restarted =
        ReferenceService.start(db, 0, Workspaces.clock(), new SeededEntropy(2))) {
      IdempotentHttpAdapter client = restarted.adapter();
      WriteIntent order = Ledgers.createOrder("acct-1", "sku", 1, 100);
      Receipt r = client.lookup("k1").orElseThrow();
      assertThat(r.intentDigest()).isEqualTo(order.digest());
      assertThat(restarted.orders()).hasSize(1);
      assertThat(
              client.execute(order, "k1", new Fence("run-1", "w", 2), ApprovalBinding.NONE).kind())
          .isEqualTo(AdapterOutcome.Kind.REPLAYED);
      assertThat(restarted.orders()).hasSize(1);
    }
  }
}
