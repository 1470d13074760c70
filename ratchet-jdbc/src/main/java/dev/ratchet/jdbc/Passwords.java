package dev.ratchet.jdbc;

import java.util.regex.Pattern;

/**
 * Keeps database passwords out of every message (issue 14): a password inside a URL's user info
 * ({@code jdbc:postgresql://user:PW@host/db}) or in a {@code password=} parameter is replaced by
 * {@value #MASK} (and so is an {@code sslpassword=}) wherever it appears in a text — store open
 * errors, driver messages that echo the URL, usage errors, hints.
 */
public final class Passwords {
  /** What a password is replaced with. */
  public static final String MASK = "***";

  private static final Pattern USER_INFO = Pattern.compile("(//[^/:@\\s]*:)[^@/\\s]*@");
  private static final Pattern PARAMETER =
      Pattern.compile("(?i)((?:^|[?&;\\s])(?:ssl)?password=)[^&;\\s]*");

  private Passwords() {}

  /** {@code text} with every URL password and {@code password=} value masked; null stays null. */
  public static String redact(String text) {
    if (text == null) {
      return null;
    }
    String t = USER_INFO.matcher(text).replaceAll("$1" + MASK + "@");
    return PARAMETER.matcher(t).replaceAll("$1" + MASK);
  }
}
