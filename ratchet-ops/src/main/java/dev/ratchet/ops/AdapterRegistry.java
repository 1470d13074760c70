package dev.ratchet.ops;

import dev.ratchet.adapter.AdapterProvider;
import dev.ratchet.error.RatchetException;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.seam.Entropy;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The adapters this build of the command line can open, by namespace: the {@link AdapterProvider}s
 * on the class path ({@link #discover}), each handed the command line's clock and randomness.
 */
public final class AdapterRegistry {
  private final Map<String, AdapterProvider> providers = new TreeMap<>();
  private final AdapterProvider.Context context;

  public AdapterRegistry(List<AdapterProvider> list, AdapterProvider.Context context) {
    this.context = context;
    for (AdapterProvider p : list) {
      if (providers.put(p.namespace(), p) != null) {
        throw new IllegalArgumentException("two adapters for namespace " + p.namespace());
      }
    }
  }

  /** The providers registered through {@link ServiceLoader} on this class's class path. */
  public static AdapterRegistry discover(InstantSource clock, Entropy entropy) {
    List<AdapterProvider> found =
        ServiceLoader.load(AdapterProvider.class, AdapterRegistry.class.getClassLoader()).stream()
            .map(ServiceLoader.Provider::get)
            .toList();
    return new AdapterRegistry(found, new AdapterProvider.Context(clock, entropy, CrashSeam.NONE));
  }

  /** The host context given to providers (crash seam {@link CrashSeam#NONE}). */
  public AdapterProvider.Context context() {
    return context;
  }

  /** The provider for {@code namespace}; {@code CONTRACT} naming {@code field} if there is none. */
  public AdapterProvider get(String field, String namespace) {
    AdapterProvider p = providers.get(namespace);
    if (p == null) {
      throw RatchetException.contract(
          field
              + ": no adapter '"
              + namespace
              + "' in this build (available: "
              + String.join(", ", providers.keySet())
              + ")");
    }
    return p;
  }
}
