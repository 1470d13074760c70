package dev.ratchet.sign;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.seam.Entropy;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.interfaces.EdECPrivateKey;
import java.security.spec.EdECPrivateKeySpec;
import java.security.spec.NamedParameterSpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * Ed25519 (RFC 8032) through the JDK's provider, for human decisions (SPEC D19). Signatures travel
 * as unpadded base64url (86 characters); a key's id is the first 16 hex digits of the SHA-256 of
 * its X.509 (SubjectPublicKeyInfo) encoding. Messages name algorithms and ids, never key bytes.
 */
public final class Ed25519 {
  public static final String ALGORITHM = "Ed25519";
  public static final int SEED_BYTES = 32;
  public static final int SIGNATURE_BYTES = 64;
  private static final Pattern SIGNATURE_TEXT = Pattern.compile("[A-Za-z0-9_-]{86}");

  /** The base64url digits whose low 4 bits are zero (A=0, Q=16, g=32, w=48). */
  private static final String CANONICAL_LAST = "AQgw";

  private static final Pattern KEY_ID = Pattern.compile("[0-9a-f]{16}");

  private Ed25519() {}

  /** A fresh key pair from 32 bytes of {@code entropy} (the seam, so tests can fix it). */
  public static KeyPair generate(Entropy entropy) {
    byte[] seed = entropy.bytes(SEED_BYTES);
    try {
      return fromSeed(seed);
    } finally {
      Arrays.fill(seed, (byte) 0);
    }
  }

  /** The key pair of a 32-byte RFC 8032 secret seed (the generator draws exactly the seed). */
  public static KeyPair fromSeed(byte[] seed) {
    if (seed == null || seed.length != SEED_BYTES) {
      throw RatchetException.contract("Ed25519 seed must be " + SEED_BYTES + " bytes");
    }
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance(ALGORITHM);
      g.initialize(NamedParameterSpec.ED25519, new SeedRandom(seed));
      return g.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw unavailable(e);
    }
  }

  /** The private key of a 32-byte seed, through {@link EdECPrivateKeySpec}. */
  public static PrivateKey privateKey(byte[] seed) {
    try {
      return KeyFactory.getInstance(ALGORITHM)
          .generatePrivate(new EdECPrivateKeySpec(NamedParameterSpec.ED25519, seed));
    } catch (GeneralSecurityException e) {
      throw unavailable(e);
    }
  }

  /** The public key of {@code key}, derived from its seed. */
  public static PublicKey publicKeyOf(PrivateKey key) {
    if (!(key instanceof EdECPrivateKey)) {
      throw RatchetException.contract("not an Ed25519 private key");
    }
    byte[] seed =
        ((EdECPrivateKey) key)
            .getBytes()
            .orElseThrow(() -> RatchetException.contract("Ed25519 private key has no seed"));
    try {
      return fromSeed(seed).getPublic();
    } finally {
      Arrays.fill(seed, (byte) 0);
    }
  }

  /** The 64-byte signature of {@code message}. */
  public static byte[] sign(PrivateKey key, byte[] message) {
    try {
      Signature s = Signature.getInstance(ALGORITHM);
      s.initSign(key);
      s.update(message);
      return s.sign();
    } catch (GeneralSecurityException e) {
      throw unavailable(e);
    }
  }

  /** True when {@code signature} is {@code key}'s signature of {@code message}. */
  public static boolean verify(PublicKey key, byte[] message, byte[] signature) {
    if (signature == null || signature.length != SIGNATURE_BYTES) {
      return false;
    }
    try {
      Signature s = Signature.getInstance(ALGORITHM);
      s.initVerify(key);
      s.update(message);
      return s.verify(signature);
    } catch (java.security.SignatureException | java.security.InvalidKeyException e) {
      return false;
    } catch (GeneralSecurityException e) {
      throw unavailable(e);
    }
  }

  /** First 16 hex digits of SHA-256 over the X.509 encoding. */
  public static String keyId(PublicKey key) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(key.getEncoded());
      return HexFormat.of().formatHex(d, 0, 8);
    } catch (GeneralSecurityException e) {
      throw unavailable(e);
    }
  }

  public static boolean isKeyId(String s) {
    return s != null && KEY_ID.matcher(s).matches();
  }

  /**
   * True for the one canonical spelling of a 64-byte signature: 86 base64url characters whose last
   * one leaves the 4 unused trailing bits zero. Without that rule 16 spellings decode to the same
   * signature, so one signed decision could be delivered under 16 different envelope fingerprints.
   */
  public static boolean isSignatureText(String s) {
    return s != null
        && SIGNATURE_TEXT.matcher(s).matches()
        && CANONICAL_LAST.indexOf(s.charAt(s.length() - 1)) >= 0;
  }

  /** Unpadded base64url. */
  public static String encodeSignature(byte[] signature) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(signature);
  }

  /** The bytes of a canonical unpadded base64url signature; null when it is not one. */
  public static byte[] decodeSignature(String text) {
    if (!isSignatureText(text)) {
      return null;
    }
    return Base64.getUrlDecoder().decode(text);
  }

  private static RatchetException unavailable(GeneralSecurityException e) {
    return new RatchetException(ErrorCode.INTERNAL, ALGORITHM + " unavailable", e);
  }

  /**
   * Hands out the seed once: how a JDK generator yields the pair of a known seed. Not a source of
   * randomness (the architecture rule on randomness names it as the one exception).
   */
  private static final class SeedRandom extends SecureRandom {
    private static final long serialVersionUID = 1L;
    private final byte[] seed;

    SeedRandom(byte[] seed) {
      this.seed = seed.clone();
    }

    @Override
    public void nextBytes(byte[] bytes) {
      if (bytes.length != seed.length) {
        throw new IllegalStateException("Ed25519 generator asked for " + bytes.length + " bytes");
      }
      System.arraycopy(seed, 0, bytes, 0, seed.length);
      Arrays.fill(seed, (byte) 0);
    }
  }
}
