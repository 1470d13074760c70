package dev.ratchet.sign;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.json.Text;
import java.util.Arrays;
import java.util.Objects;
import javax.crypto.Mac;

/**
 * An HMAC key with its public id (SPEC D15). The material never leaves this object except into a
 * {@link javax.crypto.Mac}: {@link #toString()} shows the id only, and there is no accessor for the
 * bytes. {@code failure} is the error code a verification failure under this key reports ({@code
 * CHECKPOINT} for checkpoint keys). Human decisions are Ed25519, not HMAC (D19, {@link
 * SigningKey}).
 */
public final class SecretKey {
  /** SPEC D15: at least 256 bits of key material. */
  public static final int MIN_BYTES = 32;

  private final String id;
  private final byte[] material;
  private final ErrorCode failure;
  // This key's Mac on each thread (a Mac is not thread-safe). Held by the key itself, so a Mac is
  // never shared across keys; dropped with the key, never exposed beyond Hmac. Only a key used
  // more than once gets one: a one-shot key (a run's salt, per minted idempotency key) would only
  // leave a stale Mac, holding material derived from it, in the thread's map.
  private final ThreadLocal<Mac> macs = ThreadLocal.withInitial(() -> Hmac.newMac(this));
  private volatile boolean usedBefore;
  private volatile boolean destroyed;

  private SecretKey(String id, byte[] material, ErrorCode failure) {
    this.id = Text.require("key_id", id);
    this.failure = Objects.requireNonNull(failure, "failure");
    if (material == null || material.length < MIN_BYTES) {
      throw dev.ratchet.error.RatchetException.contract(
          "key '" + id + "': key material must be at least " + MIN_BYTES + " bytes");
    }
    this.material = material.clone();
  }

  public static SecretKey of(String id, byte[] material, ErrorCode failure) {
    return new SecretKey(id, material, failure);
  }

  /** A checkpoint-signing key: failures under it are {@code CHECKPOINT}. */
  public static SecretKey checkpoint(String id, byte[] material) {
    return new SecretKey(id, material, ErrorCode.CHECKPOINT);
  }

  public String id() {
    return id;
  }

  public int length() {
    return material.length;
  }

  ErrorCode failure() {
    return failure;
  }

  /** A copy of the material, for {@link Hmac} only. */
  byte[] material() {
    return material.clone();
  }

  /**
   * A Mac initialised under this key, ready for a message; for {@link Hmac} only. The first use
   * gets a fresh Mac; later uses this thread's own, kept. After {@link #destroy} every call builds
   * a Mac from the zeroed material, as before the cache.
   */
  Mac mac() {
    if (destroyed) {
      macs.remove();
      return Hmac.newMac(this);
    }
    if (!usedBefore) {
      usedBefore = true;
      return Hmac.newMac(this);
    }
    Mac mac = macs.get();
    mac.reset(); // in case an earlier use on this thread stopped between update and doFinal
    return mac;
  }

  /** Zeroes the material; later use fails. */
  void destroy() {
    destroyed = true;
    Arrays.fill(material, (byte) 0);
  }

  @Override
  public String toString() {
    return "SecretKey[id=" + id + "]";
  }
}
