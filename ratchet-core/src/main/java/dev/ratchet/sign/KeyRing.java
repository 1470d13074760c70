package dev.ratchet.sign;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Checkpoint keys (SPEC D15): one active key signs; older keys still verify until revoked, so a
 * checkpoint signed before a rotation loads and is re-signed by the next commit. A revoked or
 * unknown key id is refused with {@code CHECKPOINT}. Immutable: rotation returns a new ring.
 */
public final class KeyRing {
  private final SecretKey active;
  private final Map<String, SecretKey> verifying;
  private final Set<String> revoked;

  private KeyRing(SecretKey active, Map<String, SecretKey> verifying, Set<String> revoked) {
    if (revoked.contains(active.id())) {
      throw RatchetException.contract("key '" + active.id() + "' is revoked and cannot sign");
    }
    this.active = active;
    LinkedHashMap<String, SecretKey> all = new LinkedHashMap<>(verifying);
    all.put(active.id(), active);
    revoked.forEach(all::remove);
    this.verifying = Map.copyOf(all);
    this.revoked = Set.copyOf(revoked);
  }

  /** A ring whose active key is {@code active} and which also verifies {@code older}. */
  public static KeyRing of(SecretKey active, SecretKey... older) {
    Map<String, SecretKey> byId = new LinkedHashMap<>();
    for (SecretKey k : older) {
      if (byId.put(k.id(), k) != null || k.id().equals(active.id())) {
        throw RatchetException.contract("key id '" + k.id() + "' appears twice in the key ring");
      }
    }
    return new KeyRing(active, byId, Set.of());
  }

  /** A signature and the key that made it. */
  public record Signature(String keyId, String hmacHex) {}

  /** The result of a successful verification. */
  public record Verified(String keyId, boolean byActiveKey) {
    /** True when the checkpoint should be re-signed under the active key. */
    public boolean needsResigning() {
      return !byActiveKey;
    }
  }

  public String activeKeyId() {
    return active.id();
  }

  /** Ids that verify, sorted. */
  public Set<String> keyIds() {
    return new TreeSet<>(verifying.keySet());
  }

  public Set<String> revokedIds() {
    return new TreeSet<>(revoked);
  }

  public Signature sign(byte[] message) {
    return new Signature(active.id(), Hmac.hmacHex(active, message));
  }

  /** Throws {@code CHECKPOINT} unless {@code keyId} is a known, unrevoked key of this ring. */
  public void requireTrusted(String keyId) {
    if (revoked.contains(keyId)) {
      throw RatchetException.checkpoint("checkpoint key id '" + keyId + "' is revoked");
    }
    if (!verifying.containsKey(keyId)) {
      throw RatchetException.checkpoint("checkpoint key id '" + keyId + "' is not trusted");
    }
  }

  /**
   * Throws {@code CHECKPOINT} unless {@code hmacHex} is the HMAC of {@code message} under {@code
   * keyId}.
   */
  public Verified verify(String keyId, byte[] message, String hmacHex) {
    requireTrusted(keyId);
    SecretKey key = verifying.get(keyId);
    if (!Hmac.verifyHex(key, message, hmacHex)) {
      throw new RatchetException(
          ErrorCode.CHECKPOINT, "HMAC does not verify under key id '" + keyId + "'");
    }
    return new Verified(keyId, keyId.equals(active.id()));
  }

  /** A ring that signs with {@code next} and still verifies every key of this one. */
  public KeyRing rotate(SecretKey next) {
    if (verifying.containsKey(next.id()) || revoked.contains(next.id())) {
      throw RatchetException.contract("key id '" + next.id() + "' is already in the key ring");
    }
    return new KeyRing(next, verifying, revoked);
  }

  /** A ring that no longer accepts {@code keyId}; the active key cannot be revoked. */
  public KeyRing revoke(String keyId) {
    if (keyId.equals(active.id())) {
      throw RatchetException.contract(
          "key '" + keyId + "' is active: rotate to a new key before revoking it");
    }
    List<String> all = new ArrayList<>(revoked);
    all.add(keyId);
    return new KeyRing(active, verifying, Set.copyOf(new TreeSet<>(all)));
  }

  @Override
  public String toString() {
    return "KeyRing[active=" + active.id() + ", verifying=" + keyIds() + "]";
  }

  /** Every key of the ring, for {@link SecretRegistry} only. */
  java.util.Collection<SecretKey> secretKeys() {
    return verifying.values();
  }
}
