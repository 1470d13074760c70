package dev.ratchet.ops;

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
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The command line's view of an adapter (issue 17): an adapter whose own service or files are
 * unreachable reports {@code STORE_UNAVAILABLE} like the store does, so the hint would send the
 * operator to check {@code --store}. This marks such failures as the adapter's ({@link
 * Unavailable}), and the hint names the adapter's service instead. Everything else passes through.
 */
public final class ServiceAdapter extends ForwardingAdapter implements AutoCloseable {
  /** An adapter's service (not the store) is unavailable; same code, same exit 5. */
  public static final class Unavailable extends RatchetException {
    private static final long serialVersionUID = 1L;

    Unavailable(String namespace, RatchetException cause) {
      super(
          ErrorCode.STORE_UNAVAILABLE, "adapter '" + namespace + "': " + cause.getMessage(), cause);
    }
  }

  private ServiceAdapter(EnvironmentAdapter delegate) {
    super(delegate);
  }

  /** {@code adapter} as the command line uses it. */
  public static ServiceAdapter wrap(EnvironmentAdapter adapter) {
    return adapter instanceof ServiceAdapter s ? s : new ServiceAdapter(adapter);
  }

  private <T> T call(Supplier<T> body) {
    try {
      return body.get();
    } catch (RatchetException e) {
      throw opening(delegate.namespace(), e);
    }
  }

  @Override
  public AdapterOutcome execute(
      WriteIntent intent, String key, Fence fence, ApprovalBinding approval) {
    return call(() -> delegate.execute(intent, key, fence, approval));
  }

  @Override
  public Observation observe() {
    return call(delegate::observe);
  }

  @Override
  public Optional<Receipt> lookup(String key) {
    return call(() -> delegate.lookup(key));
  }

  @Override
  public JsonObject read(String kind, JsonObject arguments, Fence fence) {
    return call(() -> delegate.read(kind, arguments, fence));
  }

  @Override
  public Verification verify(String kind, JsonObject arguments, JsonObject verifier, Fence fence) {
    return call(() -> delegate.verify(kind, arguments, verifier, fence));
  }

  @Override
  public void close() {
    if (delegate instanceof AutoCloseable c) {
      try {
        c.close();
      } catch (Exception e) {
        // Closing an adapter changes nothing it committed.
      }
    }
  }

  /** Marks a failure to open the adapter's service as the adapter's, like its calls. */
  public static RatchetException opening(String namespace, RatchetException e) {
    return e.code() == ErrorCode.STORE_UNAVAILABLE && !(e instanceof Unavailable)
        ? new Unavailable(namespace, e)
        : e;
  }
}
