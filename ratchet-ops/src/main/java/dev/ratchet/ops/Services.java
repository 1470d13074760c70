package dev.ratchet.ops;

import dev.ratchet.ops.internal.LoadedSecrets;
import dev.ratchet.seam.Entropy;
import dev.ratchet.seam.Seams;
import dev.ratchet.sign.KeyRing;
import dev.ratchet.sign.SecretRegistry;
import java.time.InstantSource;
import java.util.Objects;
import java.util.function.Function;

/**
 * What the commands are wired to: the store factory, the adapters, the clock, the randomness and
 * the secrets redacted from evidence. {@link #standard()} is the production wiring; tests
 * substitute parts.
 */
public record Services(
    StoreFactory stores,
    AdapterRegistry adapters,
    InstantSource clock,
    Entropy entropy,
    Function<KeyRing, SecretRegistry> secrets) {
  public Services {
    Objects.requireNonNull(stores, "stores");
    Objects.requireNonNull(adapters, "adapters");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(entropy, "entropy");
    Objects.requireNonNull(secrets, "secrets");
  }

  /**
   * The production redaction: every secret the process loaded is kept out of evidence (D27, D30).
   */
  public Services(
      StoreFactory stores, AdapterRegistry adapters, InstantSource clock, Entropy entropy) {
    this(stores, adapters, clock, entropy, ring -> LoadedSecrets.of(ring, System.getenv()));
  }

  /**
   * The same wiring with other secrets redacted from evidence: a test's canary turns redaction off
   * to prove its leak scan can fail. No option, variable or file reaches it.
   */
  public Services withSecrets(Function<KeyRing, SecretRegistry> other) {
    return new Services(stores, adapters, clock, entropy, other);
  }

  public static Services standard() {
    InstantSource clock = Seams.systemClock();
    Entropy entropy = Seams.secureEntropy();
    return new Services(
        StoreFactories.standard(), AdapterRegistry.discover(clock, entropy), clock, entropy);
  }
}
