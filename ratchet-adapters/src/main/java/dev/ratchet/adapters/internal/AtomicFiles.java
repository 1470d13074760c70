package dev.ratchet.adapters.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;

/**
 * Durable file operations: a replacement is written to a temp file, fsynced, renamed over the
 * target (one atomic {@code rename(2)}), and the directory is fsynced so the rename itself survives
 * power loss. A reader sees the old bytes or the new, never a mix.
 */
public final class AtomicFiles {
  private AtomicFiles() {}

  /** Creates {@code dir} and any missing ancestors below an existing one, fsyncing each parent. */
  public static void createDirectories(Path existingAncestor, Path dir) throws IOException {
    if (dir.equals(existingAncestor) || Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    createDirectories(existingAncestor, dir.getParent());
    Files.createDirectory(dir);
    fsyncDirectory(dir.getParent());
  }

  /** Writes {@code content} to {@code temp} (which must not exist) and syncs it to disk. */
  public static void writeTemp(Path temp, byte[] content, Path permissionsFrom) throws IOException {
    try (FileChannel ch =
        FileChannel.open(
            temp,
            StandardOpenOption.CREATE_NEW,
            StandardOpenOption.WRITE,
            LinkOption.NOFOLLOW_LINKS)) {
      ByteBuffer buf = ByteBuffer.wrap(content);
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
      ch.force(true);
    }
    if (permissionsFrom != null) {
      PosixFileAttributeView from =
          Files.getFileAttributeView(
              permissionsFrom, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
      if (from != null) {
        Set<PosixFilePermission> perms = from.readAttributes().permissions();
        Files.setPosixFilePermissions(temp, perms);
      }
    }
  }

  /**
   * The commit point: renames {@code temp} over {@code target} (same filesystem, so one atomic
   * {@code rename(2)}), then fsyncs the target's directory.
   */
  public static void publish(Path temp, Path target) throws IOException {
    Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
    fsyncDirectory(target.getParent());
  }

  /** Unlinks {@code target} and fsyncs its directory. */
  public static void delete(Path target) throws IOException {
    Files.delete(target);
    fsyncDirectory(target.getParent());
  }

  public static void fsyncDirectory(Path dir) throws IOException {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    }
  }
}
