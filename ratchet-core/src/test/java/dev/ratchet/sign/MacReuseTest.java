package dev.ratchet.sign;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.error.ErrorCode;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * The per-thread, per-key Mac a {@link SecretKey} keeps for {@link Hmac}: a reused Mac gives the
 * MAC a fresh one gives, on every use and after an interrupted one; a Mac is never shared across
 * keys or threads; a destroyed key no longer uses it.
 */
class MacReuseTest {
  private static byte[] material(long seed) {
    byte[] b = new byte[32];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static String fresh(byte[] material, byte[] message) throws GeneralSecurityException {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(material, "HmacSHA256"));
    return HexFormat.of().formatHex(mac.doFinal(message));
  }

  private static byte[] message(int i) {
    return ("message " + i).getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aReusedMacGivesWhatAFreshMacGivesEveryTime() throws Exception {
    byte[] m = material(1);
    SecretKey key = SecretKey.of("k1", m, ErrorCode.CHECKPOINT);
    for (int i = 0; i < 50; i++) {
      assertThat(Hmac.hmacHex(key, message(i))).isEqualTo(fresh(m, message(i)));
      assertThat(Hmac.verifyHex(key, message(i), fresh(m, message(i)))).isTrue();
      assertThat(Hmac.verifyHex(key, message(i), fresh(m, message(i + 1)))).isFalse();
    }
  }

  @Test
  void aOneShotKeyKeepsNoMacAndALaterUseKeepsOnePerThread() {
    SecretKey key = SecretKey.of("k7", material(7), ErrorCode.CHECKPOINT);
    Mac first = key.mac();
    Mac second = key.mac();
    assertThat(second).isNotSameAs(first);
    assertThat(key.mac()).isSameAs(second);
  }

  @Test
  void aMacLeftHalfwayIsResetBeforeTheNextMessage() throws Exception {
    byte[] m = material(2);
    SecretKey key = SecretKey.of("k2", m, ErrorCode.CHECKPOINT);
    key.mac(); // the first use, not kept
    key.mac().update(message(99)); // a use that never reached doFinal
    assertThat(Hmac.hmacHex(key, message(1))).isEqualTo(fresh(m, message(1)));
  }

  @Test
  void aMacIsNeverSharedAcrossKeys() throws Exception {
    byte[] m1 = material(3);
    byte[] m2 = material(4);
    SecretKey a = SecretKey.of("a", m1, ErrorCode.CHECKPOINT);
    SecretKey b = SecretKey.of("b", m2, ErrorCode.CHECKPOINT);
    SecretKey sameBytesOtherKey = SecretKey.of("a2", m1, ErrorCode.CHECKPOINT);
    for (SecretKey k : new SecretKey[] {a, b, sameBytesOtherKey}) {
      k.mac(); // past the first use: the kept Macs are compared
    }
    assertThat(a.mac()).isNotSameAs(b.mac()).isNotSameAs(sameBytesOtherKey.mac());
    for (int i = 0; i < 10; i++) { // interleaved: each key keeps giving its own MAC
      assertThat(Hmac.hmacHex(a, message(i))).isEqualTo(fresh(m1, message(i)));
      assertThat(Hmac.hmacHex(b, message(i))).isEqualTo(fresh(m2, message(i)));
      assertThat(Hmac.hmacHex(b, message(i))).isNotEqualTo(Hmac.hmacHex(a, message(i)));
    }
  }

  @Test
  void aMacIsNeverSharedAcrossThreads() throws Exception {
    byte[] m = material(5);
    SecretKey key = SecretKey.of("k5", m, ErrorCode.CHECKPOINT);
    key.mac();
    Mac mine = key.mac();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      Future<Mac> theirs = pool.submit(key::mac);
      assertThat(theirs.get()).isNotSameAs(mine);
      java.util.List<Future<Boolean>> all = new java.util.ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int seed = t;
        Callable<Boolean> job =
            () -> {
              for (int i = 0; i < 500; i++) {
                byte[] msg = message(seed * 1000 + i);
                if (!Hmac.hmacHex(key, msg).equals(fresh(m, msg))) {
                  return false;
                }
              }
              return true;
            };
        all.add(pool.submit(job));
      }
      for (Future<Boolean> f : all) {
        assertThat(f.get()).isTrue();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aDestroyedKeyNoLongerUsesItsCachedMac() throws Exception {
    byte[] m = material(6);
    SecretKey key = SecretKey.of("k6", m, ErrorCode.CHECKPOINT);
    String before = Hmac.hmacHex(key, message(1));
    key.destroy();
    assertThat(Hmac.hmacHex(key, message(1)))
        .isNotEqualTo(before)
        .isEqualTo(fresh(new byte[32], message(1)));
  }
}
