package dev.ratchet.langchain4j;

import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapter.ForwardingAdapter;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.store.Fence;

/**
 * The canary of {@link AgentCrashTest}: a tool wrapper that sends each write under a key changed
 * per worker attempt, as a tool minting its own key on retry would. The testkit's {@code
 * KeyChangingAdapter} counts attempts in memory, which restarts at 1 in a fresh JVM and so would
 * repeat the first key after a real kill; this one takes the attempt from the process's arguments.
 */
final class RetryKeyCanary extends ForwardingAdapter {
  private final int attempt;

  RetryKeyCanary(EnvironmentAdapter delegate, int attempt) {
    super(delegate);
    this.attempt = attempt;
  }

  @Override
  public AdapterOutcome execute(
      WriteIntent intent, String key, Fence fence, ApprovalBinding approval) {
    return delegate.execute(intent, key + "~attempt-" + attempt, fence, approval);
  }
}
