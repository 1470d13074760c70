package dev.ratchet.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import org.sqlite.util.LibraryLoaderUtil;

/**
 * Where sqlite-jdbc's native library comes from (issue 17). By default sqlite-jdbc extracts its 1–8
 * MB library into the system temp directory under a new random name in every JVM and deletes it at
 * exit, so every killed JVM leaves one behind. {@link #useCache} extracts it once into a cache
 * directory, under a name derived from the library's own SHA-256, and points sqlite-jdbc at it
 * ({@code org.sqlite.lib.path}/{@code org.sqlite.lib.name}); later JVMs load the same file. Must
 * run before the driver's first connection; an operator's own sqlite-jdbc properties win.
 */
public final class SqliteNative {
  private static final String LIB_PATH = "org.sqlite.lib.path";
  private static final String LIB_NAME = "org.sqlite.lib.name";
  private static final String TMPDIR = "org.sqlite.tmpdir";

  private SqliteNative() {}

  /**
   * Extracts the library for this OS and architecture into {@code cacheDir} (mode 0700) once and
   * uses it; returns the file, or empty when the operator set sqlite-jdbc's properties or the jar
   * holds no library for this platform (then sqlite-jdbc extracts into {@code cacheDir}).
   */
  public static synchronized Optional<Path> useCache(Path cacheDir) {
    if (System.getProperty(LIB_PATH) != null || System.getProperty(TMPDIR) != null) {
      return Optional.empty();
    }
    try {
      Files.createDirectories(
          cacheDir,
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      String name = LibraryLoaderUtil.getNativeLibName();
      byte[] lib;
      try (InputStream in =
          SqliteNative.class.getResourceAsStream(
              LibraryLoaderUtil.getNativeLibResourcePath() + "/" + name)) {
        if (in == null) {
          System.setProperty(TMPDIR, cacheDir.toString());
          return Optional.empty();
        }
        lib = in.readAllBytes();
      }
      String digest =
          HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(lib), 0, 8);
      Path dir = cacheDir.resolve("sqlite-native-" + digest);
      Path file = dir.resolve(name);
      if (!Files.isRegularFile(file) || Files.size(file) != lib.length) {
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, ".extract-", ".tmp");
        Files.write(tmp, lib);
        // Atomic: a concurrent JVM sees no file or the whole file, never half of it.
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      }
      System.setProperty(LIB_PATH, dir.toString());
      System.setProperty(LIB_NAME, name);
      return Optional.of(file);
    } catch (IOException | NoSuchAlgorithmException e) {
      // Never worse than the default: sqlite-jdbc extracts as before, into the system temp dir.
      return Optional.empty();
    }
  }
}
