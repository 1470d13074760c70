package dev.ratchet.internal;

import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.error.RatchetException;
import dev.ratchet.model.TaskSpec;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.seam.Entropy;
import dev.ratchet.seam.MonotonicClock;
import dev.ratchet.sign.KeyRing;
import dev.ratchet.sign.SecretRegistry;
import dev.ratchet.sign.TrustRoot;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.store.LeaseStore;
import java.time.Duration;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** Everything one run's engine is wired to; immutable. */
public record RunContext(
    TaskSpec task,
    EnvironmentAdapter adapter,
    CheckpointStore store,
    LeaseStore leases,
    KeyRing keys,
    TrustRoot approvers,
    TrustRoot reviewers,
    TrustRoot operators,
    InstantSource clock,
    Entropy entropy,
    CrashSeam crash,
    String workerId,
    Duration leaseTtl,
    Map<String, ActionSpec> specs,
    SecretRegistry secrets,
    MonotonicClock monotonic,
    Duration leaseMargin) {

  public RunContext {
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(adapter, "adapter");
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(leases, "leases");
    Objects.requireNonNull(keys, "keys");
    Objects.requireNonNull(approvers, "approvers");
    Objects.requireNonNull(reviewers, "reviewers");
    Objects.requireNonNull(operators, "operators");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(entropy, "entropy");
    Objects.requireNonNull(crash, "crash");
    Objects.requireNonNull(workerId, "workerId");
    Objects.requireNonNull(leaseTtl, "leaseTtl");
    specs = Map.copyOf(specs);
    Objects.requireNonNull(secrets, "secrets");
    Objects.requireNonNull(monotonic, "monotonic");
    Objects.requireNonNull(leaseMargin, "leaseMargin");
  }

  /** Indexes the adapter's specs and checks the task names only kinds the adapter offers. */
  public static Map<String, ActionSpec> specsFor(TaskSpec task, EnvironmentAdapter adapter) {
    if (!task.adapter().equals(adapter.namespace())) {
      throw RatchetException.contract(
          "task.adapter: '"
              + task.adapter()
              + "' does not match the adapter namespace '"
              + adapter.namespace()
              + "'");
    }
    Map<String, ActionSpec> specs = new LinkedHashMap<>();
    for (ActionSpec s : adapter.actionSpecs()) {
      specs.put(s.kind(), s);
    }
    for (String k : task.actionKinds()) {
      if (!specs.containsKey(k) && !TaskSpec.CONTROL_KINDS.contains(k)) {
        throw RatchetException.contract(
            "task.action_kinds: the adapter offers no kind '" + k + "'");
      }
    }
    return specs;
  }

  /**
   * The adapter of an operation that needs no environment (verify, re-sign): names the task's
   * namespace and refuses every environment call.
   */
  public static EnvironmentAdapter detachedAdapter(TaskSpec task) {
    return new dev.ratchet.adapter.DeclaredAdapter(task.adapter(), java.util.List.of());
  }

  /** Declarations only: {@code namespace} and {@code specs}; every environment call refused. */
  public static EnvironmentAdapter declarations(
      String namespace, java.util.List<dev.ratchet.adapter.ActionSpec> specs) {
    return new dev.ratchet.adapter.DeclaredAdapter(namespace, specs);
  }

  /**
   * This context for {@code next}, the task a signed migration moves the run to (D37): same
   * adapter, store, keys and trust roots; refused ({@code CONTRACT}) when {@code next} names
   * another adapter or a kind the adapter does not offer.
   */
  RunContext withTask(TaskSpec next) {
    if (!next.adapter().equals(task.adapter())) {
      throw RatchetException.contract(
          "to_task.adapter: '"
              + next.adapter()
              + "' is not the run's adapter '"
              + task.adapter()
              + "'");
    }
    for (String k : next.actionKinds()) {
      if (!specs.containsKey(k) && !TaskSpec.CONTROL_KINDS.contains(k)) {
        throw RatchetException.contract(
            "to_task.action_kinds: the adapter offers no kind '" + k + "'");
      }
    }
    return new RunContext(
        next,
        adapter,
        store,
        leases,
        keys,
        approvers,
        reviewers,
        operators,
        clock,
        entropy,
        crash,
        workerId,
        leaseTtl,
        specs,
        secrets,
        monotonic,
        leaseMargin);
  }

  long nowMs() {
    return clock.millis();
  }
}
