package dev.ratchet.ops;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.seam.Entropy;
import dev.ratchet.sign.Pem;
import dev.ratchet.sign.SecretKeys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Key files on disk: creating them 0600 in 0700 directories, the active pointer, listing. */
public final class KeyFiles {
  private static final Pattern CKPT = Pattern.compile("ckpt-([0-9]{1,9})");

  private KeyFiles() {}

  /** Creates {@code file} (mode 0600) with 32 fresh bytes; its directory is created 0700. */
  public static void create(Path file, Entropy entropy) {
    Path dir = file.toAbsolutePath().getParent();
    try {
      if (!Files.isDirectory(dir)) {
        Files.createDirectories(
            dir,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      }
    } catch (IOException e) {
      throw RatchetException.contract(
          dir + ": cannot be created (" + e.getClass().getSimpleName() + ")");
    }
    SecretKeys.writeNew(file, entropy);
  }

  /** The next unused {@code ckpt-N} id in {@code dir}. */
  public static String nextCheckpointId(Path dir) {
    int max = 0;
    for (String id : KeyConfig.keyFiles(dir).keySet()) {
      Matcher m = CKPT.matcher(id);
      if (m.matches()) {
        max = Math.max(max, Integer.parseInt(m.group(1)));
      }
    }
    return "ckpt-" + (max + 1);
  }

  /** The id the directory's {@code active} file names, or null. */
  public static String activeId(Path dir) {
    Path f = dir.resolve(Home.ACTIVE);
    return Files.isRegularFile(f) ? KeyConfig.readLine(f) : null;
  }

  /** Names {@code id} active unless a key already is; true when it did. */
  public static boolean activateIfNone(Path dir, String id) {
    if (activeId(dir) != null) {
      return false;
    }
    activate(dir, id);
    return true;
  }

  /** Makes {@code id} the active key, atomically (a crash leaves the old or the new name). */
  public static void activate(Path dir, String id) {
    try {
      Path tmp = Files.createTempFile(dir, ".active-", ".tmp");
      Files.writeString(tmp, id + "\n", StandardCharsets.US_ASCII);
      Files.move(
          tmp,
          dir.resolve(Home.ACTIVE),
          StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw RatchetException.contract(
          dir.resolve(Home.ACTIVE) + ": cannot be written (" + e.getClass().getSimpleName() + ")");
    }
  }

  /**
   * One row of {@code keys list}: id (a checkpoint key's file name; an approver's or reviewer's
   * Ed25519 key id), file, mode and whether the file is acceptable.
   */
  public static JsonObject describe(
      String role, Path file, String status, Map<String, Integer> runsByKey) {
    boolean checkpoint = role.equals("checkpoint");
    String id = checkpoint ? KeyConfig.idOf(file) : null;
    String mode;
    try {
      mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
    } catch (IOException | UnsupportedOperationException e) {
      mode = "?";
    }
    String problem = null;
    try {
      if (checkpoint) {
        SecretKeys.fromFile(id, file, ErrorCode.CHECKPOINT);
      } else {
        id = Pem.readPublic(file, KeyConfig.nameOf(file, KeyConfig.PUBLIC_SUFFIX)).keyId();
      }
    } catch (RatchetException e) {
      problem = e.getMessage();
    }
    return JsonObject.builder()
        .put("role", role)
        .put("id", id == null ? "?" : id)
        .put("file", file.toString())
        .put("mode", mode)
        .put("status", problem == null ? status : "REFUSED: " + problem)
        .put("runs_signed", runsByKey.getOrDefault(id, 0))
        .build();
  }
}
