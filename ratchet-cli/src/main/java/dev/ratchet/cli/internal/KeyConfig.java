package dev.ratchet.cli.internal;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.sign.KeyRing;
import dev.ratchet.sign.SecretKey;
import dev.ratchet.sign.SecretKeys;
import dev.ratchet.sign.TrustRoot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Where the command line finds keys (docs/cli.md, "Keys"). A key's id is its file name without
 * {@code .key}. Checkpoint keys come from {@code --key-file} (the first signs, the others only
 * verify), else from {@code RATCHET_CHECKPOINT_KEY}, else from the key directory, whose {@code
 * active} file names the signing key while every other key there still verifies. Approver and
 * reviewer trust roots are every key file in their directories. Messages name files and ids only.
 */
public final class KeyConfig {
  public static final String ENV_CHECKPOINT_KEY = "RATCHET_CHECKPOINT_KEY";
  public static final String ENV_CHECKPOINT_KEY_ID = "RATCHET_CHECKPOINT_KEY_ID";
  public static final String ENV_APPROVER_KEY = "RATCHET_APPROVER_KEY";
  public static final String ENV_APPROVER_ID = "RATCHET_APPROVER_ID";
  public static final String ENV_REVIEWER_KEY = "RATCHET_REVIEWER_KEY";
  public static final String ENV_REVIEWER_ID = "RATCHET_REVIEWER_ID";
  public static final String SUFFIX = ".key";
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

  private KeyConfig() {}

  /** The id of a key file: its name without {@code .key}. */
  public static String idOf(Path file) {
    String name = file.getFileName().toString();
    String id = name.endsWith(SUFFIX) ? name.substring(0, name.length() - SUFFIX.length()) : name;
    return requireId("key file " + file, id);
  }

  public static String requireId(String where, String id) {
    if (id == null || !ID.matcher(id).matches()) {
      throw RatchetException.contract(
          where
              + ": key id '"
              + id
              + "' must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit");
    }
    return id;
  }

  /** The checkpoint key ring from flags, environment or the key directory, in that order. */
  public static KeyRing checkpointRing(List<Path> keyFiles, Home home) {
    if (!keyFiles.isEmpty()) {
      SecretKey active = checkpointKey(keyFiles.get(0));
      List<SecretKey> older = new ArrayList<>();
      for (Path f : keyFiles.subList(1, keyFiles.size())) {
        older.add(checkpointKey(f));
      }
      return KeyRing.of(active, older.toArray(SecretKey[]::new));
    }
    String envKey = System.getenv(ENV_CHECKPOINT_KEY);
    if (envKey != null) {
      String id = System.getenv(ENV_CHECKPOINT_KEY_ID);
      String keyId = requireId(ENV_CHECKPOINT_KEY_ID, id == null ? "checkpoint" : id);
      return KeyRing.of(
          SecretKeys.fromEnvironment(keyId, ENV_CHECKPOINT_KEY, ErrorCode.CHECKPOINT));
    }
    return directoryRing(home.keys());
  }

  /** The ring of a key directory: {@code active} signs, every other key file verifies. */
  public static KeyRing directoryRing(Path dir) {
    Map<String, Path> files = keyFiles(dir);
    Path activeFile = dir.resolve(Home.ACTIVE);
    if (files.isEmpty() || !Files.isRegularFile(activeFile)) {
      throw RatchetException.contract(
          "no checkpoint key: create one with 'ratchet keys generate', pass --key-file FILE, or set "
              + ENV_CHECKPOINT_KEY
              + " (looked in "
              + dir
              + ")");
    }
    String activeId = requireId(activeFile.toString(), readLine(activeFile));
    Path active = files.get(activeId);
    if (active == null) {
      throw RatchetException.contract(
          activeFile + ": names key '" + activeId + "' but " + dir + " has no such key file");
    }
    List<SecretKey> older = new ArrayList<>();
    files.forEach(
        (id, f) -> {
          if (!id.equals(activeId)) {
            older.add(checkpointKey(f));
          }
        });
    return KeyRing.of(checkpointKey(active), older.toArray(SecretKey[]::new));
  }

  public static SecretKey checkpointKey(Path file) {
    return SecretKeys.fromFile(idOf(file), file, ErrorCode.CHECKPOINT);
  }

  public static TrustRoot approvers(Path dir) {
    return TrustRoot.approvers(signers(dir));
  }

  public static TrustRoot reviewers(Path dir) {
    return TrustRoot.reviewers(signers(dir));
  }

  private static Map<String, SecretKey> signers(Path dir) {
    Map<String, SecretKey> out = new TreeMap<>();
    keyFiles(dir).forEach((id, f) -> out.put(id, SecretKeys.fromFile(id, f, ErrorCode.APPROVAL)));
    return out;
  }

  /** A signer's own key: {@code --…-key FILE} (id from {@code --…-id} or the file), else env. */
  public static SecretKey signer(Path file, String id, String envKey, String envId, String flag) {
    if (file != null) {
      String keyId = id == null ? idOf(file) : requireId(flag, id);
      return SecretKeys.fromFile(keyId, file, ErrorCode.APPROVAL);
    }
    if (System.getenv(envKey) == null) {
      throw RatchetException.contract(
          "no signing key: pass " + flag + " FILE or set " + envKey + " and " + envId);
    }
    String keyId = id != null ? id : System.getenv(envId);
    if (keyId == null) {
      throw RatchetException.contract(envId + " is not set: it names the signer of " + envKey);
    }
    return SecretKeys.fromEnvironment(requireId(envId, keyId), envKey, ErrorCode.APPROVAL);
  }

  /** Key files of a directory by id, sorted; an absent directory has none. */
  public static Map<String, Path> keyFiles(Path dir) {
    Map<String, Path> out = new TreeMap<>();
    if (!Files.isDirectory(dir)) {
      return out;
    }
    try (Stream<Path> s = Files.list(dir)) {
      s.filter(p -> p.getFileName().toString().endsWith(SUFFIX))
          .sorted()
          .forEach(p -> out.put(idOf(p), p));
    } catch (IOException e) {
      throw RatchetException.contract(
          dir + ": cannot be listed (" + e.getClass().getSimpleName() + ")");
    }
    return out;
  }

  static String readLine(Path file) {
    try {
      return Files.readString(file, StandardCharsets.US_ASCII).strip();
    } catch (IOException e) {
      throw RatchetException.contract(
          file + ": cannot be read (" + e.getClass().getSimpleName() + ")");
    }
  }
}
