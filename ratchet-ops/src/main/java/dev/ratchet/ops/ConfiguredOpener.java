package dev.ratchet.ops;

import dev.ratchet.schedule.Claim;
import dev.ratchet.store.Lease;
import dev.ratchet.worker.DriveContext;
import dev.ratchet.worker.RunOpener;
import java.util.function.BooleanSupplier;

/**
 * A worker's opener that first looks at the home's configuration before each claim attempt (issue
 * 39: {@code ratchet.properties} is live), then asks the wrapped opener whether its judgement (the
 * trust roots) changed.
 */
final class ConfiguredOpener implements RunOpener {
  private final RunOpener opener;
  private final Runnable beforeEachClaim;

  ConfiguredOpener(RunOpener opener, Runnable beforeEachClaim) {
    this.opener = opener;
    this.beforeEachClaim = beforeEachClaim;
  }

  @Override
  public DriveContext open(Claim claim, BooleanSupplier draining) {
    return opener.open(claim, draining);
  }

  @Override
  public void released(Lease lease) {
    opener.released(lease);
  }

  @Override
  public boolean judgementChanged() {
    beforeEachClaim.run();
    return opener.judgementChanged();
  }
}
