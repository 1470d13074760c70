package dev.ratchet.ops;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.seam.Entropy;
import dev.ratchet.sign.Ed25519;
import dev.ratchet.sign.KeyRing;
import dev.ratchet.sign.Pem;
import dev.ratchet.sign.Role;
import dev.ratchet.sign.SecretKey;
import dev.ratchet.sign.SecretKeys;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.sign.TrustRoot;
import dev.ratchet.sign.TrustedKey;
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
 * active} file names the signing key while every other key there still verifies. Approver, reviewer
 * and operator trust roots are every Ed25519 public key ({@code <name>.pub}, X.509 PEM) in their
 * directories; an operator signs with their own private key ({@code --key FILE}, or {@code
 * <home>/identities/<role>/<name>.key}). Messages name files and ids only, never key bytes.
 */
public final class KeyConfig {
  public static final String ENV_CHECKPOINT_KEY = "RATCHET_CHECKPOINT_KEY";
  public static final String ENV_CHECKPOINT_KEY_ID = "RATCHET_CHECKPOINT_KEY_ID";
  public static final String SUFFIX = ".key";
  public static final String PUBLIC_SUFFIX = ".pub";
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

  private KeyConfig() {}

  /** The id of a key file: its name without {@code .key}. */
  public static String idOf(Path file) {
    return nameOf(file, SUFFIX);
  }

  /** A file's name without {@code suffix}, checked like an id. */
  public static String nameOf(Path file, String suffix) {
    String name = file.getFileName().toString();
    String id = name.endsWith(suffix) ? name.substring(0, name.length() - suffix.length()) : name;
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
    return TrustRoot.approvers(trusted(dir));
  }

  public static TrustRoot reviewers(Path dir) {
    return TrustRoot.reviewers(trusted(dir));
  }

  /** The trust root of {@code role} from its directory in {@code settings}. */
  public static TrustRoot trustRoot(Settings settings, Role role) {
    return TrustRoot.of(role, trusted(settings.trustDir(role)));
  }

  /**
   * The human role an option names ({@code --role approver|reviewer|operator}); {@code CONTRACT}
   * naming the option and the allowed values otherwise.
   */
  public static Role role(String option, String value, String... alsoAllowed) {
    return Role.ofNoun(value)
        .orElseThrow(
            () -> {
              List<String> allowed = new ArrayList<>(List.of(alsoAllowed));
              for (Role r : Role.values()) {
                allowed.add(r.noun());
              }
              return RatchetException.contract(
                  option + ": '" + value + "' is not one of " + String.join(", ", allowed));
            });
  }

  /** The public keys of a trust directory, labelled by file name ({@code alice.pub}: alice). */
  public static List<TrustedKey> trusted(Path dir) {
    List<TrustedKey> out = new ArrayList<>();
    files(dir, PUBLIC_SUFFIX).forEach((name, f) -> out.add(Pem.readPublic(f, name)));
    return out;
  }

  /**
   * An operator's own signing key: {@code --key FILE} (labelled {@code name}, else by the file
   * name), else the home's key of {@code name} for {@code role}.
   */
  public static SigningKey signer(Path keyFile, String name, Home home, Role role) {
    if (keyFile != null) {
      return Pem.readPrivate(
          keyFile, name != null ? requireId("--" + role.noun(), name) : idOf(keyFile));
    }
    if (name == null) {
      throw RatchetException.contract(
          "no signing key: pass --key FILE or --"
              + role.noun()
              + " NAME (whose key 'ratchet keys generate --role "
              + role.noun()
              + " --name NAME' wrote to "
              + home.identities(role)
              + ")");
    }
    Path file = home.identity(role, requireId("--" + role.noun(), name));
    if (!java.nio.file.Files.exists(file)) {
      throw RatchetException.contract(
          "--"
              + role.noun()
              + " "
              + name
              + ": no key named '"
              + name
              + "' in "
              + home.identities(role)
              + " (create one there with 'ratchet keys generate --role "
              + role.noun()
              + " --name "
              + name
              + "', or pass --key FILE)");
    }
    return Pem.readPrivate(file, name);
  }

  /** Writes a new key pair for {@code name}: {@code <name>.key} (0600) and {@code <name>.pub}. */
  public static SigningKey createIdentity(Path privateFile, String name, Entropy entropy) {
    SigningKey key = SigningKey.of(name, Ed25519.generate(entropy));
    Path pub = publicFileOf(privateFile);
    if (Files.exists(pub)) {
      throw RatchetException.contract(
          "key file " + pub + ": already exists; refusing to overwrite");
    }
    Pem.writePrivate(privateFile, key);
    Pem.writePublic(pub, key.trusted());
    return key;
  }

  /** {@code alice.key} → {@code alice.pub} beside it. */
  public static Path publicFileOf(Path privateFile) {
    return privateFile.resolveSibling(idOf(privateFile) + PUBLIC_SUFFIX);
  }

  /**
   * Installs {@code key} in trust directory {@code dir} as {@code <label>.pub}; true if written,
   * false if that exact key is already there; refuses another key under the same label.
   */
  public static boolean install(Path dir, TrustedKey key) {
    requireId("--name", key.label());
    Path file = dir.resolve(key.label() + PUBLIC_SUFFIX);
    if (Files.exists(file)) {
      TrustedKey there = Pem.readPublic(file, key.label());
      if (there.keyId().equals(key.keyId())) {
        return false;
      }
      throw RatchetException.contract(
          file
              + " already holds key "
              + there.keyId()
              + " for '"
              + key.label()
              + "'; remove it first");
    }
    for (TrustedKey k : trusted(dir)) {
      if (k.keyId().equals(key.keyId())) {
        throw RatchetException.contract(
            "key " + key.keyId() + " is already trusted in " + dir + " as '" + k.label() + "'");
      }
    }
    Pem.writePublic(file, key);
    return true;
  }

  /** Key files of a directory by id, sorted; an absent directory has none. */
  public static Map<String, Path> keyFiles(Path dir) {
    return files(dir, SUFFIX);
  }

  /** Files of a directory ending in {@code suffix}, by name without it, sorted. */
  public static Map<String, Path> files(Path dir, String suffix) {
    Map<String, Path> out = new TreeMap<>();
    if (!Files.isDirectory(dir)) {
      return out;
    }
    try (Stream<Path> s = Files.list(dir)) {
      s.filter(p -> p.getFileName().toString().endsWith(suffix))
          .sorted()
          .forEach(p -> out.put(nameOf(p, suffix), p));
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
