package dev.ratchet.json;

import java.util.Collection;

/** The closest known name to a misspelt one, for messages that name the field meant. */
final class Spelling {
  private Spelling() {}

  /** The candidate within a small edit distance of {@code word} (the nearest), or null. */
  static String closest(String word, Collection<String> candidates) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String c : candidates) {
      int d = distance(word, c);
      if (d < bestDistance) {
        best = c;
        bestDistance = d;
      }
    }
    int allowed = Math.max(1, Math.min(3, word.length() / 3));
    return bestDistance <= allowed ? best : null;
  }

  /** Levenshtein distance, two rows. */
  static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
