package dev.ratchet.sign;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The secrets a process holds, in every form a command or a careless renderer might print them
 * (SPEC D27): each registered byte string is looked for raw (ISO-8859-1), as lowercase and
 * uppercase hex, and as base64 and base64url with and without padding; and any run of {@value
 * #FRAGMENT_BYTES} or more of its bytes in hex or base64 at any alignment (what an output cut at
 * its size limit leaves). {@link #redact} replaces every match by {@code [redacted:<id>]} — the id,
 * never the bytes — and counts the matches per id.
 *
 * <p>Any key type registers its own encodings with {@link Builder#add(String, byte[])}: an HMAC key
 * its material, an Ed25519 private key its seed and its PKCS#8 encoding. Values of this class never
 * render their content ({@link #toString} lists ids only).
 */
public final class SecretRegistry {
  /** The shortest run of a secret's bytes that is redacted on its own (96 bits). */
  public static final int FRAGMENT_BYTES = 12;

  private static final SecretRegistry NONE = new SecretRegistry(List.of());

  private record Needle(String id, String text) {}

  private final List<Needle> needles;
  private final List<String> ids;

  private SecretRegistry(List<Needle> needles) {
    List<Needle> sorted = new ArrayList<>(needles);
    // Longest first: a whole encoding is replaced before any fragment of it is looked for.
    sorted.sort(Comparator.comparingInt((Needle n) -> n.text().length()).reversed());
    this.needles = List.copyOf(sorted);
    this.ids = needles.stream().map(Needle::id).distinct().toList();
  }

  /** A registry without secrets: redacts nothing. */
  public static SecretRegistry none() {
    return NONE;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * This registry and {@code secret} under {@code id}: for a secret that changes while the process
   * runs (a lease token, renewed with each grant), added on top of the loaded keys.
   */
  public SecretRegistry with(String id, byte[] secret) {
    Objects.requireNonNull(id, "id");
    if (secret.length < FRAGMENT_BYTES) {
      throw new IllegalArgumentException(
          "secret '" + id + "': at least " + FRAGMENT_BYTES + " bytes can be redacted");
    }
    List<Needle> all = new ArrayList<>(needles);
    Builder.needles(id, secret, all);
    return new SecretRegistry(all);
  }

  /** The ids of the registered secrets. */
  public List<String> ids() {
    return ids;
  }

  public boolean isEmpty() {
    return needles.isEmpty();
  }

  /** What {@link #redact} made of a text: the new text and the matches per secret id. */
  public record Redacted(String text, Map<String, Integer> matches) {
    public Redacted {
      matches = Map.copyOf(matches);
    }

    public int total() {
      return matches.values().stream().mapToInt(Integer::intValue).sum();
    }
  }

  /** {@code text} with every registered secret in every form replaced by its marker. */
  public Redacted redact(String text) {
    Map<String, Integer> counts = new TreeMap<>();
    String out = text;
    for (Needle n : needles) {
      int at = out.indexOf(n.text());
      if (at < 0) {
        continue;
      }
      String marker = "[redacted:" + n.id() + "]";
      StringBuilder b = new StringBuilder(out.length());
      int from = 0;
      int found = 0;
      while (at >= 0) {
        b.append(out, from, at).append(marker);
        from = at + n.text().length();
        found++;
        at = out.indexOf(n.text(), from);
      }
      b.append(out, from, out.length());
      out = b.toString();
      counts.merge(n.id(), found, Integer::sum);
    }
    return new Redacted(out, counts);
  }

  @Override
  public String toString() {
    return "SecretRegistry" + ids;
  }

  /** Collects secrets; each is copied, so the caller may wipe its array. */
  public static final class Builder {
    private final Map<String, List<byte[]>> secrets = new LinkedHashMap<>();

    private Builder() {}

    /**
     * Registers {@code secret} under {@code id} (the id is printed in markers; never the bytes).
     */
    public Builder add(String id, byte[] secret) {
      Objects.requireNonNull(id, "id");
      if (secret.length < FRAGMENT_BYTES) {
        throw new IllegalArgumentException(
            "secret '" + id + "': at least " + FRAGMENT_BYTES + " bytes can be redacted");
      }
      secrets.computeIfAbsent(id, k -> new ArrayList<>()).add(secret.clone());
      return this;
    }

    public Builder add(SecretKey key) {
      byte[] m = key.material();
      try {
        return add(key.id(), m);
      } finally {
        Arrays.fill(m, (byte) 0);
      }
    }

    /** Every key of the ring, active or verifying. */
    public Builder add(KeyRing ring) {
      ring.secretKeys().forEach(this::add);
      return this;
    }

    public SecretRegistry build() {
      List<Needle> all = new ArrayList<>();
      secrets.forEach((id, list) -> list.forEach(s -> needles(id, s, all)));
      return new SecretRegistry(all);
    }

    private static void needles(String id, byte[] s, List<Needle> out) {
      HexFormat hex = HexFormat.of();
      out.add(new Needle(id, new String(s, StandardCharsets.ISO_8859_1)));
      out.add(new Needle(id, hex.formatHex(s)));
      out.add(new Needle(id, hex.formatHex(s).toUpperCase(Locale.ROOT)));
      out.add(new Needle(id, Base64.getEncoder().encodeToString(s)));
      out.add(new Needle(id, Base64.getUrlEncoder().encodeToString(s)));
      out.add(new Needle(id, Base64.getEncoder().withoutPadding().encodeToString(s)));
      out.add(new Needle(id, Base64.getUrlEncoder().withoutPadding().encodeToString(s)));
      for (int start = 0; start + FRAGMENT_BYTES <= s.length; start++) {
        byte[] run = Arrays.copyOfRange(s, start, start + FRAGMENT_BYTES);
        String h = hex.formatHex(run);
        out.add(new Needle(id, new String(run, StandardCharsets.ISO_8859_1)));
        out.add(new Needle(id, h));
        out.add(new Needle(id, h.toUpperCase(Locale.ROOT)));
      }
      for (int offset = 0; offset < 3; offset++) {
        byte[] tail = Arrays.copyOfRange(s, offset, s.length);
        String std = Base64.getEncoder().withoutPadding().encodeToString(tail);
        String url = Base64.getUrlEncoder().withoutPadding().encodeToString(tail);
        // The last block depends on what follows the secret; the interior does not.
        int usable = (tail.length / 3) * 4 - 4;
        int window = FRAGMENT_BYTES / 3 * 4;
        for (int i = 0; i + window <= usable; i += 4) {
          out.add(new Needle(id, std.substring(i, i + window)));
          out.add(new Needle(id, url.substring(i, i + window)));
        }
      }
    }
  }
}
