package dev.ratchet.sign;

import dev.ratchet.error.RatchetException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.EnumSet;
import java.util.Set;

/**
 * Ed25519 key files (docs/adr/0020-human-decisions-ed25519.md): a private key is PKCS#8 in a {@code
 * PRIVATE KEY} PEM file created with mode 0600 (and refused if group or others can reach it); a
 * public key is X.509 SubjectPublicKeyInfo in a {@code PUBLIC KEY} PEM file. Messages name the file
 * and the rule, never any part of the content.
 */
public final class Pem {
  private static final String PRIVATE = "PRIVATE KEY";
  private static final String PUBLIC = "PUBLIC KEY";
  private static final Set<PosixFilePermission> GROUP_OR_OTHER =
      EnumSet.complementOf(
          EnumSet.of(
              PosixFilePermission.OWNER_READ,
              PosixFilePermission.OWNER_WRITE,
              PosixFilePermission.OWNER_EXECUTE));

  private Pem() {}

  /** Writes {@code key}'s PKCS#8 PEM, created 0600 (never widened); refuses to overwrite. */
  public static void writePrivate(Path file, SigningKey key) {
    byte[] der = key.privateKey().getEncoded();
    byte[] text = pem(PRIVATE, der);
    try {
      create(file, text, "rw-------");
    } finally {
      Arrays.fill(der, (byte) 0);
      Arrays.fill(text, (byte) 0);
    }
  }

  /** Writes {@code key}'s X.509 PEM (mode 0644); refuses to overwrite. */
  public static void writePublic(Path file, TrustedKey key) {
    create(file, pem(PUBLIC, key.publicKey().getEncoded()), "rw-r--r--");
  }

  /** A private key file, labelled {@code label}; refused if group or others can reach it. */
  public static SigningKey readPrivate(Path file, String label) {
    requireRegular(file);
    try {
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
      if (perms.stream().anyMatch(GROUP_OR_OTHER::contains)) {
        throw RatchetException.contract(
            "key file " + file + ": must not be accessible by group or others (chmod 600 it)");
      }
    } catch (UnsupportedOperationException e) {
      throw RatchetException.contract(
          "key file " + file + ": file system has no POSIX permissions");
    } catch (IOException e) {
      throw unreadable(file, e);
    }
    byte[] der = body(file, PRIVATE);
    try {
      PrivateKey k =
          KeyFactory.getInstance(Ed25519.ALGORITHM).generatePrivate(new PKCS8EncodedKeySpec(der));
      return SigningKey.of(label, k);
    } catch (GeneralSecurityException | ClassCastException e) {
      throw RatchetException.contract("key file " + file + ": not an Ed25519 PKCS#8 private key");
    } finally {
      Arrays.fill(der, (byte) 0);
    }
  }

  /** A public key file, labelled {@code label}. */
  public static TrustedKey readPublic(Path file, String label) {
    requireRegular(file);
    try {
      PublicKey k =
          KeyFactory.getInstance(Ed25519.ALGORITHM)
              .generatePublic(new X509EncodedKeySpec(body(file, PUBLIC)));
      return TrustedKey.of(label, k);
    } catch (GeneralSecurityException e) {
      throw RatchetException.contract("key file " + file + ": not an Ed25519 X.509 public key");
    }
  }

  private static void requireRegular(Path file) {
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      throw RatchetException.contract("key file " + file + ": not a regular file");
    }
  }

  private static byte[] body(Path file, String type) {
    byte[] raw;
    try {
      raw = Files.readAllBytes(file);
    } catch (IOException e) {
      throw unreadable(file, e);
    }
    String text = new String(raw, StandardCharsets.US_ASCII);
    Arrays.fill(raw, (byte) 0);
    String begin = "-----BEGIN " + type + "-----";
    String end = "-----END " + type + "-----";
    int b = text.indexOf(begin);
    int e = text.indexOf(end);
    if (b < 0 || e < b) {
      throw RatchetException.contract("key file " + file + ": not a PEM '" + type + "' file");
    }
    try {
      return Base64.getMimeDecoder().decode(text.substring(b + begin.length(), e));
    } catch (IllegalArgumentException x) {
      throw RatchetException.contract("key file " + file + ": PEM body is not base64");
    }
  }

  private static byte[] pem(String type, byte[] der) {
    String b64 = Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der);
    return ("-----BEGIN " + type + "-----\n" + b64 + "\n-----END " + type + "-----\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  private static void create(Path file, byte[] text, String mode) {
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        // Key directories are nobody else's to list (the files themselves carry their own mode).
        Files.createDirectories(
            parent,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      }
      Files.createFile(
          file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(mode)));
      Files.write(file, text, StandardOpenOption.WRITE, StandardOpenOption.SYNC);
    } catch (FileAlreadyExistsException e) {
      throw RatchetException.contract(
          "key file " + file + ": already exists; refusing to overwrite");
    } catch (IOException e) {
      throw RatchetException.contract(
          "key file " + file + ": cannot be written (" + e.getClass().getSimpleName() + ")");
    }
  }

  private static RatchetException unreadable(Path file, IOException e) {
    return RatchetException.contract(
        "key file " + file + ": cannot be read (" + e.getClass().getSimpleName() + ")");
  }
}
