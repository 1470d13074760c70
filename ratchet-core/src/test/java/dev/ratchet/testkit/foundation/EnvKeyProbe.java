package dev.ratchet.testkit.foundation;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.sign.Hmac;
import dev.ratchet.sign.SecretKey;
import dev.ratchet.sign.SecretKeys;
import java.nio.charset.StandardCharsets;

/**
 * Run in a child JVM by {@link SigningTest} with key variables in its environment: for each
 * variable name argument it loads the key with {@link SecretKeys#fromEnvironment} and prints one
 * line, {@code OK <var> <hmac of "probe">} or {@code ERR <var> <code> <message>}.
 */
public final class EnvKeyProbe {
  static final byte[] MESSAGE = "probe".getBytes(StandardCharsets.US_ASCII);

  private EnvKeyProbe() {}

  public static void main(String[] variables) {
    for (String variable : variables) {
      try {
        SecretKey key = SecretKeys.fromEnvironment("env-key", variable, ErrorCode.CHECKPOINT);
        System.out.println("OK " + variable + " " + Hmac.hmacHex(key, MESSAGE) + " " + key);
      } catch (RatchetException e) {
        System.out.println("ERR " + variable + " " + e.code() + " " + e.getMessage());
      }
    }
  }
}
