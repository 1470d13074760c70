package dev.ratchet.sign;

import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Text;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** HMAC-SHA256 over canonical bytes, compared in constant time (SPEC D15). */
public final class Hmac {
  private static final String ALGORITHM = "HmacSHA256";

  private Hmac() {}

  /** The lowercase hex HMAC-SHA256 of {@code message} under {@code key}. */
  public static String hmacHex(SecretKey key, byte[] message) {
    return HexFormat.of().formatHex(mac(key, message));
  }

  /**
   * True when {@code hmacHex} is the HMAC of {@code message} under {@code key}. Malformed hex is
   * simply false; the comparison of well-formed values takes constant time.
   */
  public static boolean verifyHex(SecretKey key, byte[] message, String hmacHex) {
    if (hmacHex == null || !Text.isHex64(hmacHex)) {
      return false;
    }
    byte[] expected = hmacHex(key, message).getBytes(StandardCharsets.US_ASCII);
    return MessageDigest.isEqual(expected, hmacHex.getBytes(StandardCharsets.US_ASCII));
  }

  private static byte[] mac(SecretKey key, byte[] message) {
    // The key's own per-thread Mac: getInstance and init per message cost more than the HMAC of
    // a record; doFinal leaves it initialised under the same key for the next one.
    return key.mac().doFinal(message);
  }

  /** A new Mac initialised under {@code key}, for {@link SecretKey#mac} only. */
  static Mac newMac(SecretKey key) {
    byte[] material = key.material();
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(new SecretKeySpec(material, ALGORITHM));
      return mac;
    } catch (GeneralSecurityException e) {
      // The message names the algorithm only; never the key.
      throw new RatchetException(
          dev.ratchet.error.ErrorCode.INTERNAL, ALGORITHM + " unavailable", e);
    } finally {
      java.util.Arrays.fill(material, (byte) 0);
    }
  }
}
