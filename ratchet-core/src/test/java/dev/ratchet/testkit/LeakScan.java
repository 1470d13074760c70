package dev.ratchet.testkit;

import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Finds key material in rendered text (SPEC §3, D15: no secret in any output in any encoding). A
 * scan knows some secrets by name and looks for each in every form a careless renderer might use:
 * the raw bytes read as ISO-8859-1, lowercase and uppercase hex, and base64 in the standard and
 * URL-safe alphabets, with or without padding. It also finds fragments: any 12-byte run of a key in
 * raw or hex form, and any base64 rendering of a run of about 12 bytes or more at any alignment.
 *
 * <p>{@link #check} renders an object the way a log line, an error report or a serialiser might:
 * its {@code toString}, and for records, collections, maps, optionals, byte arrays and throwables
 * (message, cause chain, suppressed) everything inside them too.
 */
public final class LeakScan {
  /** Bytes in a fragment that counts as a leak (96 bits: no chance collision). */
  public static final int FRAGMENT_BYTES = 12;

  private static final int MAX_RENDER_DEPTH = 12;

  /** Marks a part that could not be rendered; a scan that meets it fails closed. */
  private static final String UNREADABLE = "<unreadable record component ";

  private final Map<String, List<Needle>> needles = new LinkedHashMap<>();
  private final List<String> findings = new ArrayList<>();
  private int scanned;

  private record Needle(String encoding, String text) {}

  /** A scan for the given secrets, each named for the report (the name, never the bytes). */
  public static LeakScan of(Map<String, byte[]> secretsByName) {
    LeakScan scan = new LeakScan();
    secretsByName.forEach(scan::add);
    return scan;
  }

  private void add(String name, byte[] secret) {
    if (secret.length < FRAGMENT_BYTES) {
      throw new IllegalArgumentException("secret '" + name + "' is too short to scan for");
    }
    List<Needle> list = new ArrayList<>();
    for (int start = 0; start + FRAGMENT_BYTES <= secret.length; start++) {
      byte[] run = java.util.Arrays.copyOfRange(secret, start, start + FRAGMENT_BYTES);
      list.add(new Needle("raw", new String(run, StandardCharsets.ISO_8859_1)));
      String hex = HexFormat.of().formatHex(run);
      list.add(new Needle("hex", hex));
      list.add(new Needle("HEX", hex.toUpperCase(Locale.ROOT)));
    }
    for (int offset = 0; offset < 3; offset++) {
      byte[] tail = java.util.Arrays.copyOfRange(secret, offset, secret.length);
      // The interior of an encoding does not depend on what precedes it once aligned to 3 bytes;
      // drop the last block, which depends on what follows (padding or more data).
      String std = Base64.getEncoder().withoutPadding().encodeToString(tail);
      String url = Base64.getUrlEncoder().withoutPadding().encodeToString(tail);
      int usable = (tail.length / 3) * 4 - 4;
      int window = FRAGMENT_BYTES / 3 * 4;
      for (int i = 0; i + window <= usable; i += 4) {
        list.add(new Needle("base64", std.substring(i, i + window)));
        list.add(new Needle("base64url", url.substring(i, i + window)));
      }
    }
    // Whole-key forms, reported by name when present.
    list.add(new Needle("base64 (padded)", Base64.getEncoder().encodeToString(secret)));
    list.add(new Needle("base64url (padded)", Base64.getUrlEncoder().encodeToString(secret)));
    needles.put(name, list);
  }

  /** Renders {@code object} (deeply) and records every secret found in the rendering. */
  public LeakScan check(String where, Object object) {
    String text = render(object);
    scanned++;
    if (text.contains(UNREADABLE)) {
      findings.add(where + " could not be rendered completely, so it cannot be cleared");
    }
    for (Map.Entry<String, List<Needle>> e : needles.entrySet()) {
      for (Needle n : e.getValue()) {
        if (text.contains(n.text())) {
          findings.add(where + " contains key '" + e.getKey() + "' as " + n.encoding());
          break;
        }
      }
    }
    return this;
  }

  /** Every finding so far: where, which key, which encoding. Empty when nothing leaked. */
  public List<String> findings() {
    return List.copyOf(findings);
  }

  /** How many objects were checked. */
  public int scanned() {
    return scanned;
  }

  /** The text {@link #check} scans for {@code object}. */
  public static String render(Object object) {
    StringBuilder out = new StringBuilder();
    render(object, out, 0, new IdentityHashMap<>());
    return out.toString();
  }

  private static void render(
      Object o, StringBuilder out, int depth, IdentityHashMap<Object, Boolean> seen) {
    if (o == null) {
      out.append("null");
      return;
    }
    if (depth > MAX_RENDER_DEPTH || seen.put(o, Boolean.TRUE) != null) {
      return;
    }
    if (o instanceof byte[] b) {
      out.append(new String(b, StandardCharsets.ISO_8859_1))
          .append('\n')
          .append(HexFormat.of().formatHex(b))
          .append('\n')
          .append(Base64.getEncoder().encodeToString(b))
          .append('\n');
      return;
    }
    out.append(o).append('\n');
    if (o instanceof Throwable t) {
      out.append(t.getMessage()).append('\n').append(t.getLocalizedMessage()).append('\n');
      render(t.getCause(), out, depth + 1, seen);
      for (Throwable s : t.getSuppressed()) {
        render(s, out, depth + 1, seen);
      }
    } else if (o instanceof Record r) {
      for (RecordComponent c : r.getClass().getRecordComponents()) {
        try {
          java.lang.reflect.Method accessor = c.getAccessor();
          accessor.setAccessible(true);
          render(accessor.invoke(r), out, depth + 1, seen);
        } catch (ReflectiveOperationException | RuntimeException e) {
          out.append(UNREADABLE).append(c.getName()).append(">\n");
        }
      }
    } else if (o instanceof Collection<?> c) {
      for (Object item : c) {
        render(item, out, depth + 1, seen);
      }
    } else if (o instanceof Map<?, ?> m) {
      for (Map.Entry<?, ?> e : m.entrySet()) {
        render(e.getKey(), out, depth + 1, seen);
        render(e.getValue(), out, depth + 1, seen);
      }
    } else if (o instanceof Optional<?> opt) {
      render(opt.orElse(null), out, depth + 1, seen);
    } else if (o instanceof Object[] array) {
      for (Object item : array) {
        render(item, out, depth + 1, seen);
      }
    }
  }
}
