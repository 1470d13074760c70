package dev.ratchet.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapter.Observation;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.store.Fence;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link EnvironmentAdapter} must pass (SPEC D8, D9, D18). Subclasses supply a
 * fresh adapter, two different write intents, and a way to read the external system's own effect
 * count — never the adapter's receipt table, which is what is being checked.
 */
public abstract class EnvironmentAdapterContract {
  protected EnvironmentAdapter adapter;

  /** A fresh adapter over a fresh environment. */
  protected abstract EnvironmentAdapter newAdapter();

  /** A write this adapter accepts. */
  protected abstract WriteIntent intentA();

  /** Another write, with a different digest. */
  protected abstract WriteIntent intentB();

  /** How many times the external system shows the effect of the write under {@code key}. */
  protected abstract int effects(String key);

  /** The adapter's clock in epoch milliseconds (approval expiry is judged on it). */
  protected abstract long nowMs();

  @BeforeEach
  void freshAdapter() {
    adapter = newAdapter();
  }

  private static Fence fence(long version) {
    return new Fence("contract-run", "worker", version);
  }

  @Test
  void lookupOfAnUnknownKeyIsEmpty() {
    assertThat(adapter.lookup("never-used")).isEmpty();
  }

  @Test
  void executeLeavesOneReceiptAndOneEffect() {
    Observation before = adapter.observe();
    AdapterOutcome out = adapter.execute(intentA(), "k-1", fence(1), ApprovalBinding.NONE);
    assertThat(out.kind()).isEqualTo(AdapterOutcome.Kind.EXECUTED);
    Receipt r = out.receipt();
    assertThat(r.idempotencyKey()).isEqualTo("k-1");
    assertThat(r.intentDigest()).isEqualTo(intentA().digest());
    assertThat(r.namespace()).isEqualTo(adapter.namespace());
    assertThat(r.revisionBefore()).isEqualTo(before.revision());
    assertThat(r.fingerprintBefore()).isEqualTo(before.stateFingerprint());
    Observation after = adapter.observe();
    assertThat(r.revisionAfter()).isEqualTo(after.revision());
    assertThat(r.fingerprintAfter()).isEqualTo(after.stateFingerprint());
    assertThat(adapter.lookup("k-1")).contains(r);
    assertThat(effects("k-1")).isEqualTo(1);
  }

  @Test
  void sameKeySameIntentReplaysWithoutAnotherEffect() {
    Receipt first = adapter.execute(intentA(), "k-1", fence(1), ApprovalBinding.NONE).receipt();
    Observation between = adapter.observe();
    AdapterOutcome again = adapter.execute(intentA(), "k-1", fence(1), ApprovalBinding.NONE);
    assertThat(again.kind()).isEqualTo(AdapterOutcome.Kind.REPLAYED);
    assertThat(again.receipt().fingerprint()).isEqualTo(first.fingerprint());
    assertThat(adapter.observe()).isEqualTo(between);
    assertThat(effects("k-1")).isEqualTo(1);
  }

  @Test
  void sameKeyDifferentIntentIsAConflictThatChangesNothing() {
    Receipt first = adapter.execute(intentA(), "k-1", fence(1), ApprovalBinding.NONE).receipt();
    Observation between = adapter.observe();
    AdapterOutcome other = adapter.execute(intentB(), "k-1", fence(1), ApprovalBinding.NONE);
    assertThat(other.kind()).isEqualTo(AdapterOutcome.Kind.CONFLICT);
    assertThat(other.receipt().fingerprint()).isEqualTo(first.fingerprint());
    assertThat(adapter.observe()).isEqualTo(between);
    assertThat(effects("k-1")).isEqualTo(1);
  }

  @Test
  void aStaleFencingTokenIsRefusedAndChangesNothing() {
    adapter.execute(intentA(), "k-1", fence(2), ApprovalBinding.NONE);
    Observation between = adapter.observe();
    assertThatThrownBy(() -> adapter.execute(intentB(), "k-2", fence(1), ApprovalBinding.NONE))
        .isInstanceOfSatisfying(
            RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.FENCED));
    assertThat(adapter.observe()).isEqualTo(between);
    assertThat(adapter.lookup("k-2")).isEmpty();
    assertThat(effects("k-2")).isZero();
  }

  @Test
  void anExpiredApprovalIsRefusedByTheAdapterItself() {
    ApprovalBinding expired = new ApprovalBinding("a".repeat(64), nowMs());
    Observation before = adapter.observe();
    assertThatThrownBy(() -> adapter.execute(intentA(), "k-1", fence(1), expired))
        .isInstanceOfSatisfying(
            RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.APPROVAL));
    assertThat(adapter.observe()).isEqualTo(before);
    assertThat(adapter.lookup("k-1")).isEmpty();
    assertThat(effects("k-1")).isZero();
  }

  @Test
  void aReceiptBindsTheApprovalItWasGiven() {
    ApprovalBinding approval = new ApprovalBinding("b".repeat(64), nowMs() + 60_000);
    Receipt r = adapter.execute(intentA(), "k-1", fence(1), approval).receipt();
    assertThat(r.approvalFingerprint()).isEqualTo("b".repeat(64));
    assertThat(r.committedAtMs()).isLessThan(approval.expiresAtMs());
    assertThat(r.fenceRunId()).isEqualTo("contract-run");
    assertThat(r.fenceLeaseVersion()).isEqualTo(1);
  }

  @Test
  void aCommittedWriteWhoseAnswerWasLostIsFoundByLookup() {
    // The answer of execute is dropped, as if the caller crashed after the external commit.
    adapter.execute(intentA(), "k-lost", fence(1), ApprovalBinding.NONE);
    Receipt found = adapter.lookup("k-lost").orElseThrow();
    assertThat(found.intentDigest()).isEqualTo(intentA().digest());
    AdapterOutcome retry = adapter.execute(intentA(), "k-lost", fence(1), ApprovalBinding.NONE);
    assertThat(retry.kind()).isEqualTo(AdapterOutcome.Kind.REPLAYED);
    assertThat(effects("k-lost")).isEqualTo(1);
  }
}
