package dev.ratchet.testkit;

import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapter.ForwardingAdapter;
import dev.ratchet.adapter.Receipt;
import java.util.List;
import java.util.Optional;

/**
 * The in-memory workspace with {@code append_file} declared unreceipted (SPEC D23): the adapter
 * still appends once per call and counts it in its ledger, but nothing can look the effect up by
 * key, as with a shell command that deploys.
 */
public final class UnreceiptedAppend extends ForwardingAdapter {
  public UnreceiptedAppend(EnvironmentAdapter delegate) {
    super(delegate);
  }

  @Override
  public List<ActionSpec> actionSpecs() {
    return delegate.actionSpecs().stream()
        .map(s -> "append_file".equals(s.kind()) ? UnreceiptedSpec.of(s) : s)
        .toList();
  }

  @Override
  public Optional<Receipt> lookup(String key) {
    return Optional.empty();
  }
}
