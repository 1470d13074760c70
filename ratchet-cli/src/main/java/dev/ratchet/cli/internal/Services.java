package dev.ratchet.cli.internal;

import dev.ratchet.seam.Entropy;
import dev.ratchet.seam.Seams;
import java.time.InstantSource;
import java.util.Objects;

/**
 * What the commands are wired to: the store factory, the adapters, the clock and the randomness.
 * {@link #standard()} is the production wiring; tests substitute parts.
 */
public record Services(
    StoreFactory stores, AdapterRegistry adapters, InstantSource clock, Entropy entropy) {
  public Services {
    Objects.requireNonNull(stores, "stores");
    Objects.requireNonNull(adapters, "adapters");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(entropy, "entropy");
  }

  public static Services standard() {
    InstantSource clock = Seams.systemClock();
    Entropy entropy = Seams.secureEntropy();
    return new Services(
        StoreFactories.standard(), AdapterRegistry.discover(clock, entropy), clock, entropy);
  }
}
