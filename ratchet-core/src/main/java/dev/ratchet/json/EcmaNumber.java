package dev.ratchet.json;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * ECMAScript's Number::toString for finite doubles (ECMA-262 §6.1.6.1.20), which RFC 8785 §3.2.2.3
 * requires. Java 17's {@code Double.toString} does not always give the shortest digits, so the
 * digits come from the shortest correctly rounded decimal that reads back as the same double.
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

  private static BigDecimal shortest(double value) {
    BigDecimal exact = new BigDecimal(value);
    for (int precision = 1; precision <= 17; precision++) {
      BigDecimal candidate = exact.round(new MathContext(precision, RoundingMode.HALF_EVEN));
      if (candidate.doubleValue() == value) {
        return candidate;
      }
    }
    return exact.round(new MathContext(17, RoundingMode.HALF_EVEN));
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
