package dev.ratchet.cli.internal;

import dev.ratchet.error.RatchetException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The adapters this build of the command line can open, by namespace. */
public final class AdapterRegistry {
  private final Map<String, AdapterProvider> providers = new TreeMap<>();

  public AdapterRegistry(List<AdapterProvider> list) {
    for (AdapterProvider p : list) {
      if (providers.put(p.namespace(), p) != null) {
        throw new IllegalArgumentException("two adapters for namespace " + p.namespace());
      }
    }
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
