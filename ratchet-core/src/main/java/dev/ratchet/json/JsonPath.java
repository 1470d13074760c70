package dev.ratchet.json;

/** Builds the field paths that parse errors name, in a JSONPath-like form. */
final class JsonPath {
  private JsonPath() {}

  static String member(String parent, String key) {
    boolean plain = !key.isEmpty() && key.length() <= 64 && key.chars().allMatch(JsonPath::plain);
    return plain ? parent + "." + key : parent + "[" + quoted(key) + "]";
  }

  private static boolean plain(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }

  private static String quoted(String key) {
    String shown = key.length() > 64 ? key.substring(0, 64) + "…" : key;
    StringBuilder b = new StringBuilder("\"");
    shown
        .codePoints()
        .forEach(
            c ->
                b.append(
                    c < 0x20 || c == '"' ? String.format("\\u%04x", c) : Character.toString(c)));
    return b.append('"').toString();
  }
}
