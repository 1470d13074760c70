package dev.ratchet.sign;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.seam.Entropy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Base64;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;

/**
 * Loads and creates key files (docs/adr/key-file-format.md). A key file holds one line, {@code
 * hex:<64+ hex digits>} or {@code base64:<...>}, and must not be readable by group or others. An
 * environment variable holds the same text. Error messages name the file or variable and the rule,
 * never any part of the content.
 */
public final class SecretKeys {
  private static final Set<PosixFilePermission> GROUP_OR_OTHER =
      EnumSet.of(
          PosixFilePermission.GROUP_READ,
          PosixFilePermission.GROUP_WRITE,
          PosixFilePermission.GROUP_EXECUTE,
          PosixFilePermission.OTHERS_READ,
          PosixFilePermission.OTHERS_WRITE,
          PosixFilePermission.OTHERS_EXECUTE);

  private SecretKeys() {}

  public static SecretKey fromFile(String id, Path file, ErrorCode failure) {
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      throw RatchetException.contract("key file " + file + ": not a regular file");
    }
    try {
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
      if (perms.stream().anyMatch(GROUP_OR_OTHER::contains)) {
        throw RatchetException.contract(
            "key file " + file + ": must not be accessible by group or others (chmod 600 it)");
      }
      byte[] raw = Files.readAllBytes(file);
      try {
        return SecretKey.of(
            id, decode(new String(raw, StandardCharsets.US_ASCII), "key file " + file), failure);
      } finally {
        Arrays.fill(raw, (byte) 0);
      }
    } catch (UnsupportedOperationException e) {
      throw RatchetException.contract(
          "key file " + file + ": file system has no POSIX permissions");
    } catch (IOException e) {
      throw RatchetException.contract(
          "key file " + file + ": cannot be read (" + e.getClass().getSimpleName() + ")");
    }
  }

  public static SecretKey fromEnvironment(String id, String variable, ErrorCode failure) {
    return fromEnvironment(id, variable, System.getenv(), failure);
  }

  static SecretKey fromEnvironment(
      String id, String variable, Map<String, String> env, ErrorCode failure) {
    String text = env.get(variable);
    if (text == null) {
      throw RatchetException.contract("environment variable " + variable + " is not set");
    }
    return SecretKey.of(id, decode(text, "environment variable " + variable), failure);
  }

  /** 32 fresh bytes from {@code entropy}. */
  public static SecretKey generate(Entropy entropy, String id, ErrorCode failure) {
    return SecretKey.of(id, entropy.bytes(SecretKey.MIN_BYTES), failure);
  }

  /**
   * Writes a new key file with mode 0600 (created that way, never widened); refuses to overwrite.
   */
  public static void writeNew(Path file, Entropy entropy) {
    byte[] material = entropy.bytes(SecretKey.MIN_BYTES);
    byte[] line =
        ("hex:" + HexFormat.of().formatHex(material) + "\n").getBytes(StandardCharsets.US_ASCII);
    try {
      Files.createFile(
          file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      Files.write(file, line, StandardOpenOption.WRITE, StandardOpenOption.SYNC);
    } catch (FileAlreadyExistsException e) {
      throw RatchetException.contract(
          "key file " + file + ": already exists; refusing to overwrite");
    } catch (IOException e) {
      throw RatchetException.contract(
          "key file " + file + ": cannot be written (" + e.getClass().getSimpleName() + ")");
    } finally {
      Arrays.fill(material, (byte) 0);
      Arrays.fill(line, (byte) 0);
    }
  }

  private static byte[] decode(String text, String where) {
    String t = text.strip();
    try {
      if (t.startsWith("hex:")) {
        return HexFormat.of().parseHex(t.substring(4));
      }
      if (t.startsWith("base64:")) {
        return Base64.getDecoder().decode(t.substring(7));
      }
    } catch (IllegalArgumentException e) {
      throw RatchetException.contract(where + ": key material is not valid for its prefix");
    }
    throw RatchetException.contract(where + ": must start with 'hex:' or 'base64:'");
  }
}
