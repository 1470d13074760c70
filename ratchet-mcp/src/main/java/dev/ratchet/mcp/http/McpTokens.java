package dev.ratchet.mcp.http;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.Json;
import dev.ratchet.json.JsonArray;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import dev.ratchet.seam.Entropy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The bearer tokens of {@code ratchet mcp --http} (ADR 0081): one per client, issued by an
 * operator, each scoped to named runs. Only a token's SHA-256 is stored ({@code
 * <dir>/<client>.json}, mode 0600); a token is 256 random bits, so a plain digest is as strong as a
 * slow hash against guessing. Every check reads the directory again, so a revocation (deleting the
 * file) holds for the next request; digests are compared with {@link MessageDigest#isEqual},
 * against every stored one.
 */
public final class McpTokens {
  /** What a client's token grants; never the token or its digest. */
  public record Grant(String client, List<String> runs, String issuedAt) {
    public Grant {
      runs = List.copyOf(runs);
    }

    public boolean allows(String runId) {
      return runs.contains(runId);
    }
  }

  public static final String PREFIX = "rmcp_";
  private static final String FORMAT = "ratchet-mcp-token/1";
  private static final Pattern CLIENT = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}");
  private static final Pattern RUN = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  private final Path dir;

  public McpTokens(Path dir) {
    this.dir = dir;
  }

  /**
   * Issues a new token for {@code client}, scoped to {@code runs}, and returns it: the only time it
   * exists outside the client. Refuses a client that already holds one (revoke it first).
   */
  public String issue(String client, List<String> runs, Entropy entropy, Instant now) {
    requireClient(client);
    if (runs.isEmpty()) {
      throw RatchetException.contract("--run: a token must be scoped to at least one run");
    }
    for (String run : runs) {
      if (!RUN.matcher(run).matches()) {
        throw RatchetException.contract(
            "--run: '" + run + "' must be 1-64 letters, digits, '.', '_' or '-'");
      }
    }
    Path file = file(client);
    if (Files.exists(file)) {
      throw RatchetException.contract(
          "--client: '" + client + "' already holds a token; revoke it before issuing another");
    }
    String token =
        PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(entropy.bytes(32));
    List<JsonValue> scoped = new ArrayList<>();
    runs.stream().distinct().forEach(r -> scoped.add(new JsonString(r)));
    JsonObject record =
        JsonObject.builder()
            .put("format", FORMAT)
            .put("client", client)
            .put("token_sha256", HexFormat.of().formatHex(digest(token)))
            .put("runs", new JsonArray(scoped))
            .put("issued_at", now.toString())
            .build();
    write(file, Canonical.string(record));
    return token;
  }

  /** Deletes {@code client}'s token; false if it held none. */
  public boolean revoke(String client) {
    requireClient(client);
    try {
      return Files.deleteIfExists(file(client));
    } catch (IOException e) {
      throw new RatchetException(ErrorCode.INTERNAL, "cannot revoke the token of " + client, e);
    }
  }

  /** Every client holding a token, by name. */
  public List<Grant> list() {
    List<Grant> out = new ArrayList<>();
    for (JsonObject r : records()) {
      try {
        out.add(grant(r));
      } catch (RuntimeException e) {
        // A damaged token file grants nothing, so it lists as nothing.
      }
    }
    out.sort(java.util.Comparator.comparing(Grant::client));
    return out;
  }

  /**
   * The grant of the token presented, or empty. Compares the presented token's digest with every
   * stored digest in constant time (no early exit on the first match either).
   */
  public Optional<Grant> authenticate(String presented) {
    if (presented == null || !presented.startsWith(PREFIX) || presented.length() > 200) {
      return Optional.empty();
    }
    byte[] digest = digest(presented);
    Grant found = null;
    for (JsonObject r : records()) {
      try {
        byte[] stored = HexFormat.of().parseHex(text(r, "token_sha256"));
        if (MessageDigest.isEqual(digest, stored) && found == null) {
          found = grant(r);
        }
      } catch (RuntimeException e) {
        // A damaged token file grants nothing.
      }
    }
    return Optional.ofNullable(found);
  }

  private List<JsonObject> records() {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    List<JsonObject> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".json")).toList()) {
        try {
          JsonObject r = (JsonObject) Json.parse(Files.readString(f, StandardCharsets.UTF_8));
          if (FORMAT.equals(text(r, "format"))) {
            out.add(r);
          }
        } catch (IOException | RuntimeException e) {
          // A token file revoked while listed, or not one of ours: it grants nothing.
        }
      }
    } catch (IOException e) {
      throw new RatchetException(ErrorCode.INTERNAL, "cannot read the MCP token directory", e);
    }
    return out;
  }

  private static Grant grant(JsonObject r) {
    List<String> runs = new ArrayList<>();
    for (JsonValue v : ((JsonArray) r.get("runs").orElseThrow()).items()) {
      runs.add(((JsonString) v).value());
    }
    return new Grant(text(r, "client"), runs, text(r, "issued_at"));
  }

  private static String text(JsonObject r, String field) {
    return ((JsonString) r.get(field).orElseThrow()).value();
  }

  private Path file(String client) {
    return dir.resolve(client + ".json");
  }

  private static void requireClient(String client) {
    if (client == null || !CLIENT.matcher(client).matches()) {
      throw RatchetException.contract(
          "--client: must be 1-64 letters, digits, '.', '_' or '-', not starting with '.'");
    }
  }

  private void write(Path file, String text) {
    try {
      if (!Files.isDirectory(dir)) {
        Files.createDirectories(
            dir,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      }
      Path tmp =
          Files.createTempFile(
              dir,
              ".token",
              ".tmp",
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new RatchetException(ErrorCode.INTERNAL, "cannot write the MCP token file", e);
    }
  }

  private static byte[] digest(String token) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
