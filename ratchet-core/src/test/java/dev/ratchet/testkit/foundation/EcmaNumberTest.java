package dev.ratchet.testkit.foundation;

import static dev.ratchet.testkit.foundation.CanonicalTest.number;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import dev.ratchet.testkit.RandomJson;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * ECMAScript number serialisation (RFC 8785 §3.2.2.3) against an oracle independent of the
 * implementation's search; split from {@link CanonicalTest}, whose RFC tables it complements.
 */
class EcmaNumberTest {

  private static final Pattern PLAIN = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]*[1-9])?");
  private static final Pattern EXPONENT =
      Pattern.compile("-?[1-9](\\.[0-9]*[1-9])?e[+-][1-9][0-9]*");
  private static final BigDecimal E21 = new BigDecimal("1e21");
  private static final BigDecimal E_6 = new BigDecimal("1e-6");

  /**
   * The oracle, independent of the implementation's search: (1) the text reads back as the double
   * through {@link Double#parseDouble}; (2) neither k−1-digit neighbour of the exact value reads
   * back (any shorter decimal that did would, padded with zeros, be one of them or lie between
   * them); (3) of the k-digit neighbours that read back, the text is the closest; (4) the layout is
   * ECMAScript's: plain for 1e-6 ≤ |x| < 1e21, exponent form otherwise, no superfluous zeros.
   */
  static String checkShortest(double d, long seed, String where) {
    String out = number(d);
    String context = "seed " + seed + ", " + where + ", double " + d + " -> " + out;
    if (d == 0) {
      if (!out.equals("0")) {
        fail(context + ": zero must print as 0");
      }
      return out;
    }
    if (Double.parseDouble(out) != d) {
      fail(context + ": does not read back");
    }
    BigDecimal printed = new BigDecimal(out).abs();
    BigDecimal magnitude = printed.stripTrailingZeros();
    int k = magnitude.precision();
    BigDecimal exact = new BigDecimal(Math.abs(d));
    if (k > 1) {
      for (RoundingMode mode : new RoundingMode[] {RoundingMode.FLOOR, RoundingMode.CEILING}) {
        BigDecimal shorter = exact.round(new MathContext(k - 1, mode));
        if (Double.parseDouble(shorter.toString()) == Math.abs(d)) {
          fail(context + ": the shorter " + shorter + " also reads back");
        }
      }
    }
    BigDecimal below = exact.round(new MathContext(k, RoundingMode.FLOOR));
    BigDecimal above = exact.round(new MathContext(k, RoundingMode.CEILING));
    BigDecimal best = null;
    for (BigDecimal c : new BigDecimal[] {below, above}) {
      if (Double.parseDouble(c.toString()) == Math.abs(d)) {
        if (best == null || c.subtract(exact).abs().compareTo(best.subtract(exact).abs()) < 0) {
          best = c;
        }
      }
    }
    if (best == null) {
      fail(context + ": no " + k + "-digit neighbour of the exact value reads back");
    }
    boolean tie = best.subtract(exact).abs().compareTo(magnitude.subtract(exact).abs()) == 0;
    if (best.compareTo(magnitude) != 0 && !tie) {
      fail(context + ": not the closest " + k + "-digit decimal (expected " + best + ")");
    }
    boolean plain = magnitude.compareTo(E_6) >= 0 && magnitude.compareTo(E21) < 0;
    if (!(plain ? PLAIN : EXPONENT).matcher(out).matches()) {
      fail(context + ": not in ECMAScript " + (plain ? "plain" : "exponent") + " layout");
    }
    if ((out.charAt(0) == '-') != (d < 0)) {
      fail(context + ": wrong sign");
    }
    return out;
  }

  @Test
  void ecmaNumbersAreShortestClosestAndReadBackForRandomDoubles() {
    long seed = 0x5EED_8785L;
    Random random = new Random(seed);
    int checked = 0;
    for (int i = 0; i < 60_000; i++) {
      double d = Double.longBitsToDouble(random.nextLong());
      if (Double.isFinite(d)) {
        checkShortest(d, seed, "random bits #" + i);
        checked++;
      }
    }
    for (int i = 0; i < 50_000; i++) {
      String literal = RandomJson.randomDecimalString(random);
      double d = Double.parseDouble(literal);
      if (!Double.isFinite(d)) {
        continue;
      }
      String out = checkShortest(d, seed, "decimal string #" + i + " " + literal);
      // The literal itself reads back, so the shortest form has at most its digits.
      int literalDigits = new BigDecimal(literal).stripTrailingZeros().precision();
      int outDigits = new BigDecimal(out).stripTrailingZeros().precision();
      if (d != 0 && outDigits > literalDigits) {
        fail("seed " + seed + ", " + literal + " -> " + out + ": longer than the literal");
      }
      checked++;
    }
    assertThat(checked).isGreaterThanOrEqualTo(100_000);
  }

  @Test
  void ecmaNumbersAreShortestAtEveryPowerOfTwoAndItsNeighbours() {
    // Where the spacing of doubles halves, the interval that reads back is lopsided: the shortest
    // digits can lie on the far side of the value.
    for (int e = -1074; e <= 1023; e++) {
      double p = Math.scalb(1.0, e);
      for (double d : new double[] {p, Math.nextUp(p), Math.nextDown(p), -p}) {
        if (Double.isFinite(d) && d != 0) {
          checkShortest(d, 0, "2^" + e + " neighbourhood");
        }
      }
    }
    for (long m = 1; m < 1000; m++) {
      checkShortest(m / 10.0, 0, "m/10");
      checkShortest(m * 1e-7, 0, "m*1e-7");
      checkShortest(m * 1e20, 0, "m*1e20");
    }
  }
}
