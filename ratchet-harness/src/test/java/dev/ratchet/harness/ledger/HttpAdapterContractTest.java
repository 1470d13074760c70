package dev.ratchet.harness.ledger;

import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.adapters.Ledgers;
import dev.ratchet.adapters.Workspaces;
import dev.ratchet.testkit.EnvironmentAdapterContract;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.SeededEntropy;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adapter contract against the reference service over real HTTP; effects are counted in the
 * service's own ledger (orders created under each key), never in its idempotency table.
 */
class HttpAdapterContractTest extends EnvironmentAdapterContract {
  @TempDir Path dir;
  final ManualClock clock = Workspaces.clock();
  ReferenceService service;

  @Override
  protected EnvironmentAdapter newAdapter() {
    service = ReferenceService.start(dir.resolve("ledger.db"), 0, clock, new SeededEntropy(9));
    return service.adapter();
  }

  @AfterEach
  void stop() {
    service.close();
  }

  @Override
  protected WriteIntent intentA() {
    return Ledgers.createOrder("acct-1", "sku-a", 1, 2500);
  }

  @Override
  protected WriteIntent intentB() {
    return Ledgers.createOrder("acct-1", "sku-b", 2, 700);
  }

  @Override
  protected int effects(String key) {
    return service.effects(key);
  }

  @Override
  protected long nowMs() {
    return clock.millis();
  }
}
