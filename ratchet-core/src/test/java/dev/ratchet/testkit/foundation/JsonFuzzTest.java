package dev.ratchet.testkit.foundation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonDecimal;
import dev.ratchet.json.JsonLimits;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.testkit.RandomJson;
import dev.ratchet.testkit.Rules;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The strict parser under generated input (SPEC §3, D16): a seeded round trip over generated
 * documents and their non-canonical renderings; a seeded fuzz in which mutated documents and
 * nesting bombs never raise anything but {@code CONTRACT}. The refusals one by one are in {@link
 * JsonParseTest}.
 */
@Rules("R1.3-strict-json")
class JsonFuzzTest {
  // ---------------------------------------------------------------- seeded round trip

  /**
   * A non-canonical rendering: members shuffled, random whitespace, characters randomly escaped as
   * {@code \\uXXXX} (either case), {@code /} as {@code \\/}, decimals in Java's own notation.
   */
  static String noisy(JsonValue v, Random r) {
    StringBuilder b = new StringBuilder();
    noisy(v, r, b);
    return b.toString();
  }

  private static void ws(Random r, StringBuilder b) {
    int n = r.nextInt(4) == 0 ? r.nextInt(3) : 0;
    for (int i = 0; i < n; i++) {
      b.append(" \t\r\n".charAt(r.nextInt(4)));
    }
  }

  private static void noisy(JsonValue v, Random r, StringBuilder b) {
    ws(r, b);
    if (v instanceof JsonObject o) {
      List<Map.Entry<String, JsonValue>> members = new ArrayList<>(o.members().entrySet());
      Collections.shuffle(members, r);
      b.append('{');
      for (int i = 0; i < members.size(); i++) {
        if (i > 0) {
          b.append(',');
        }
        ws(r, b);
        noisyString(members.get(i).getKey(), r, b);
        ws(r, b);
        b.append(':');
        noisy(members.get(i).getValue(), r, b);
      }
      ws(r, b);
      b.append('}');
    } else if (v instanceof JsonArray a) {
      b.append('[');
      for (int i = 0; i < a.size(); i++) {
        if (i > 0) {
          b.append(',');
        }
        noisy(a.get(i), r, b);
      }
      ws(r, b);
      b.append(']');
    } else if (v instanceof JsonString s) {
      noisyString(s.value(), r, b);
    } else if (v instanceof JsonDecimal d) {
      // Java's repr also reads back exactly; the parser must give the same double.
      b.append(r.nextBoolean() ? Double.toString(d.value()) : Canonical.string(d));
    } else {
      b.append(Canonical.string(v));
    }
    ws(r, b);
  }

  private static void noisyString(String s, Random r, StringBuilder b) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == '"' || c == '\\' || r.nextInt(8) == 0) {
        b.append(String.format(r.nextBoolean() ? "\\u%04x" : "\\u%04X", (int) c));
      } else if (c == '/' && r.nextBoolean()) {
        b.append("\\/");
      } else {
        b.append(c);
      }
    }
    b.append('"');
  }

  @Test
  void tenThousandGeneratedDocumentsRoundTripThroughTheirCanonicalForm() {
    long seed = 0x10_000L;
    RandomJson gen = new RandomJson(seed);
    Random noise = new Random(seed + 1);
    for (int i = 0; i < 10_000; i++) {
      JsonValue x = gen.document(5);
      String where = "seed " + seed + ", document #" + i;
      String c = Canonical.string(x);
      JsonValue parsed = Json.parse(c);
      if (!parsed.equals(x)) {
        fail(where + ": parse(canonical(x)) != x for " + c);
      }
      if (!Canonical.string(parsed).equals(c)) {
        fail(where + ": canonical form is not idempotent for " + c);
      }
      if (!Json.parse(Canonical.bytes(x), JsonLimits.DEFAULT).equals(x)) {
        fail(where + ": the byte entry point disagrees for " + c);
      }
      String n = noisy(x, noise);
      JsonValue fromNoisy = Json.parse(n);
      if (!fromNoisy.equals(x) || !Canonical.string(fromNoisy).equals(c)) {
        fail(where + ": a non-canonical rendering parses differently: " + n);
      }
    }
  }

  // ---------------------------------------------------------------- seeded fuzz

  private static final byte[] INTERESTING =
      "{}[]\",:\\-+.eE0129tfnu \t\n".getBytes(StandardCharsets.US_ASCII);

  static byte[] mutate(byte[] in, Random r) {
    List<Byte> b = new ArrayList<>(in.length + 8);
    for (byte x : in) {
      b.add(x);
    }
    int rounds = 1 + r.nextInt(3);
    for (int k = 0; k < rounds; k++) {
      int pos = b.isEmpty() ? 0 : r.nextInt(b.size());
      switch (r.nextInt(7)) {
        case 0 -> {
          if (!b.isEmpty()) {
            b.set(pos, (byte) r.nextInt(256));
          }
        }
        case 1 -> {
          if (!b.isEmpty()) {
            b.set(pos, INTERESTING[r.nextInt(INTERESTING.length)]);
          }
        }
        case 2 -> {
          if (!b.isEmpty()) {
            b.remove(pos);
          }
        }
        case 3 -> b.add(pos, INTERESTING[r.nextInt(INTERESTING.length)]);
        case 4 -> b.add(pos, (byte) (0x80 + r.nextInt(128)));
        case 5 -> {
          // Duplicate a slice: repeats keys, opens extra containers.
          int end = Math.min(b.size(), pos + 1 + r.nextInt(16));
          b.addAll(end, new ArrayList<>(b.subList(pos, end)));
        }
        default -> {
          while (b.size() > pos) {
            b.remove(b.size() - 1);
          }
        }
      }
    }
    byte[] out = new byte[b.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = b.get(i);
    }
    return out;
  }

  @Test
  void mutatedDocumentsAreRefusedOnlyWithContractErrors() {
    long seed = 0xF022L;
    RandomJson gen = new RandomJson(seed);
    Random r = new Random(seed);
    JsonLimits tight = new JsonLimits(4096, 6, 64);
    int refusedCount = 0;
    int accepted = 0;
    for (int i = 0; i < 20_000; i++) {
      JsonValue x = gen.document(4);
      byte[] valid =
          (i % 2 == 0 ? Canonical.string(x) : noisy(x, r)).getBytes(StandardCharsets.UTF_8);
      byte[] m = mutate(valid, r);
      JsonLimits limits = i % 5 == 0 ? tight : JsonLimits.DEFAULT;
      for (int entry = 0; entry < 2; entry++) {
        try {
          JsonValue v =
              entry == 0
                  ? Json.parse(m, limits)
                  : Json.parse(new String(m, StandardCharsets.ISO_8859_1), limits);
          accepted++;
          String c = Canonical.string(v);
          if (!Canonical.string(Json.parse(c)).equals(c)) {
            fail("seed " + seed + ", mutation #" + i + ": accepted but not stable: " + c);
          }
        } catch (RatchetException e) {
          if (e.code() != ErrorCode.CONTRACT || !e.getMessage().startsWith("$")) {
            fail("seed " + seed + ", mutation #" + i + ": " + e + " for " + hex(m), e);
          }
          refusedCount++;
        } catch (Throwable t) {
          fail("seed " + seed + ", mutation #" + i + ": " + t + " for " + hex(m), t);
        }
      }
    }
    assertThat(refusedCount).as("most mutations break the document").isGreaterThan(accepted);
  }

  @Test
  void nestingBombsAndValueSoupAreRefusedOnlyWithContractErrors() {
    long seed = 0xB0B0L;
    Random r = new Random(seed);
    String[] atoms = {"[", "]", "{", "}", "\"a\":", ",", "1", "\"", "\\", "-", "e", "null", " "};
    for (int i = 0; i < 2_000; i++) {
      StringBuilder b = new StringBuilder();
      if (i % 10 == 0) {
        b.append((r.nextBoolean() ? "[" : "{\"k\":").repeat(1 + r.nextInt(20_000)));
      } else {
        int n = r.nextInt(200);
        for (int k = 0; k < n; k++) {
          b.append(atoms[r.nextInt(atoms.length)]);
        }
      }
      String text = b.toString();
      try {
        Json.parse(text);
      } catch (RatchetException e) {
        if (e.code() != ErrorCode.CONTRACT) {
          fail("seed " + seed + ", case #" + i + ": " + e, e);
        }
      } catch (Throwable t) {
        fail("seed " + seed + ", case #" + i + ": " + t, t);
      }
    }
  }

  private static String hex(byte[] b) {
    String h = HexFormat.of().formatHex(b);
    return h.length() > 400 ? h.substring(0, 400) + "…" : h;
  }
}
