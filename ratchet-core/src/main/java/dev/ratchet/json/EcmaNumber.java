package dev.ratchet.json;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * ECMAScript's Number::toString for finite doubles (ECMA-262 §6.1.6.1.20), which RFC 8785 §3.2.2.3
 * requires. Java 17's {@code Double.toString} does not always give the shortest digits, so the
 * digits come from the shortest decimal that reads back as the same double, the closest such one
 * when there are two.
 */
final class EcmaNumber {
  private EcmaNumber() {}

  static String format(double value) {
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException("non-finite number has no JSON form");
    }
    if (value == 0) {
      return "0"; // also -0
    }
    if (value == Math.rint(value) && Math.abs(value) < 1e21 && Math.abs(value) <= (1L << 53)) {
      return Long.toString((long) value);
    }
    StringBuilder out = new StringBuilder(32);
    if (value < 0) {
      out.append('-');
      value = -value;
    }
    BigDecimal shortest = shortest(value);
    String digits = shortest.unscaledValue().toString();
    // Strip trailing zeros of the digit string (unscaled value may carry them).
    int k = digits.length();
    while (k > 1 && digits.charAt(k - 1) == '0') {
      k--;
    }
    digits = digits.substring(0, k);
    // value = 0.digits × 10^n, i.e. n = position of the decimal point relative to the digits.
    int n = shortest.precision() - shortest.scale();
    layout(digits, k, n, out);
    return out.toString();
  }

  /**
   * ECMA-262 Number::toString step 5: the fewest digits k such that the decimal reads back as
   * {@code value}; among the k-digit candidates that do, the closest to {@code value} (ties: the
   * even one). The candidates at each length are the k-digit decimals just below and just above the
   * exact value. Rounding to nearest alone is not enough: at a power of two the interval that reads
   * back is twice as wide above the value as below, so the nearest k-digit decimal can fall outside
   * it while the one on the other side is inside (e.g. 2^-1017 is 7.120236347223045e-307, not the
   * 17 digits 7.1202363472230444e-307).
   */
  private static BigDecimal shortest(double value) {
    BigDecimal exact = new BigDecimal(value);
    // Whether some k-digit decimal reads back is monotone in k (a k-digit decimal that does is on
    // the (k+1)-digit grid, so the (k+1)-digit neighbour on its side lies between it and the
    // value),
    // so the fewest digits can be found by bisection; 17 digits always suffice for a double.
    int lo = 1;
    int hi = 17;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (candidate(exact, mid, value) != null) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    BigDecimal best = candidate(exact, lo, value);
    if (best == null) {
      throw new IllegalStateException("no decimal of at most 17 digits reads back as " + value);
    }
    return best;
  }

  /**
   * The {@code precision}-digit decimal closest to {@code exact} that reads back as {@code value},
   * or null if neither neighbour does.
   */
  private static BigDecimal candidate(BigDecimal exact, int precision, double value) {
    BigDecimal below = exact.round(new MathContext(precision, RoundingMode.FLOOR));
    BigDecimal above = exact.round(new MathContext(precision, RoundingMode.CEILING));
    boolean belowReadsBack = below.doubleValue() == value;
    boolean aboveReadsBack = above.doubleValue() == value;
    if (belowReadsBack && aboveReadsBack) {
      int cmp = exact.subtract(below).compareTo(above.subtract(exact));
      if (cmp != 0) {
        return cmp < 0 ? below : above;
      }
      return exact.round(new MathContext(precision, RoundingMode.HALF_EVEN));
    }
    if (belowReadsBack) {
      return below;
    }
    return aboveReadsBack ? above : null;
  }

  /** ECMA-262 Number::toString steps 6–10, with k digits and decimal exponent n. */
  private static void layout(String digits, int k, int n, StringBuilder out) {
    if (k <= n && n <= 21) {
      out.append(digits).append("0".repeat(n - k));
    } else if (0 < n && n <= 21) {
      out.append(digits, 0, n).append('.').append(digits, n, k);
    } else if (-6 < n && n <= 0) {
      out.append("0.").append("0".repeat(-n)).append(digits);
    } else {
      int e = n - 1;
      out.append(digits.charAt(0));
      if (k > 1) {
        out.append('.').append(digits, 1, k);
      }
      out.append('e').append(e < 0 ? '-' : '+').append(Math.abs(e));
    }
  }
}
