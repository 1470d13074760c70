package dev.ratchet.internal;

import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapter.ForwardingAdapter;
import dev.ratchet.adapter.Observation;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.adapter.Verification;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.store.Fence;
import dev.ratchet.store.ForwardingLeaseStore;
import dev.ratchet.store.Lease;
import dev.ratchet.store.LeaseStore;
import dev.ratchet.telemetry.RatchetObserver;
import dev.ratchet.telemetry.Step;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Wires a {@link RatchetObserver} around what a run calls (adapter and leases; the store in {@link
 * ObservedStore}) so the engine itself carries no telemetry code. Installed only when an observer
 * is configured: the default path has no decorator at all.
 */
public final class Observed {
  private Observed() {}

  /** Times {@code body} as one step and reports it, whatever it returns or throws. */
  public static <T> T timed(
      RatchetObserver o,
      InstantSource clock,
      Step.Kind kind,
      String name,
      String runId,
      String actionId,
      long generation,
      Supplier<T> body) {
    return timed(o, clock, kind, name, runId, actionId, generation, body, t -> "ok");
  }

  /** As {@link #timed}, the step's outcome named by what {@code body} returned. */
  public static <T> T timed(
      RatchetObserver o,
      InstantSource clock,
      Step.Kind kind,
      String name,
      String runId,
      String actionId,
      long generation,
      Supplier<T> body,
      java.util.function.Function<T, String> outcomeOf) {
    Instant start = clock.instant();
    String outcome = ErrorCode.INTERNAL.name();
    try {
      T result = body.get();
      outcome = outcomeOf.apply(result);
      return result;
    } catch (RatchetException e) {
      outcome = e.code().name();
      throw e;
    } finally {
      o.step(
          new Step(
              kind,
              name,
              runId,
              actionId,
              generation,
              start,
              Duration.between(start, clock.instant()),
              outcome));
    }
  }

  /** Leases reporting a refused renewal as a lost lease and a refused fence check as fenced. */
  public static LeaseStore leases(LeaseStore d, RatchetObserver o) {
    return new ForwardingLeaseStore(d) {
      @Override
      public Lease renew(Lease lease, Duration ttl) {
        try {
          return delegate.renew(lease, ttl);
        } catch (RatchetException e) {
          if (e.code() == ErrorCode.FENCED) {
            o.leaseLost(lease.runId());
          }
          throw e;
        }
      }

      @Override
      public void check(Fence fence) {
        try {
          delegate.check(fence);
        } catch (RatchetException e) {
          if (e.code() == ErrorCode.FENCED) {
            o.fenced(fence.runId());
          }
          throw e;
        }
      }
    };
  }

  /** An adapter whose environment calls are each reported as an adapter-call step. */
  public static EnvironmentAdapter adapter(
      EnvironmentAdapter d, RatchetObserver o, InstantSource clock, String runId) {
    return new ForwardingAdapter(d) {
      @Override
      public AdapterOutcome execute(
          WriteIntent intent, String key, Fence fence, ApprovalBinding approval) {
        return call("execute", null, () -> d.execute(intent, key, fence, approval));
      }

      @Override
      public Observation observe() {
        return call("observe", null, d::observe);
      }

      @Override
      public Optional<Receipt> lookup(String key) {
        return call("lookup", null, () -> d.lookup(key));
      }

      @Override
      public JsonObject read(String kind, JsonObject arguments, Fence fence) {
        return call("read", null, () -> d.read(kind, arguments, fence));
      }

      @Override
      public Verification verify(
          String kind, JsonObject arguments, JsonObject verifier, Fence fence) {
        return call("verify", null, () -> d.verify(kind, arguments, verifier, fence));
      }

      private <T> T call(String name, String actionId, Supplier<T> body) {
        return timed(o, clock, Step.Kind.ADAPTER_CALL, name, runId, actionId, -1, body);
      }
    };
  }
}
