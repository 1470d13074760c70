package dev.ratchet.cli.internal;

import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.store.Fence;

/**
 * Reaches {@link CrashPoint#ADAPTER_AFTER_EXTERNAL_COMMIT} after the adapter committed a write and
 * before its answer gets back to the runtime: from the runtime's side, exactly the window where the
 * effect happened and the receipt was never seen.
 */
public final class CrashingAdapter extends AdapterDecorator {
  private final CrashSeam seam;

  public CrashingAdapter(EnvironmentAdapter delegate, CrashSeam seam) {
    super(delegate);
    this.seam = seam;
  }

  @Override
  public AdapterOutcome execute(
      WriteIntent intent, String key, Fence fence, ApprovalBinding approval) {
    AdapterOutcome out = delegate.execute(intent, key, fence, approval);
    if (out.kind() == AdapterOutcome.Kind.EXECUTED) {
      seam.reached(CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT);
    }
    return out;
  }
}
