package dev.ratchet.adapters.internal;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Serialises every operation on one workspace: across threads and adapter instances of this JVM by
 * a lock per real root, and across processes by an OS file lock on {@code .ratchet-adapter/lock}.
 * The JVM lock comes first because an OS lock cannot be taken twice by one JVM.
 *
 * <p>The OS lock is polled, not waited for: the kernel judges deadlock between processes, not
 * threads, so two multi-threaded workers each waiting (on different threads) for a workspace the
 * other holds get a blocking lock refused with EDEADLK (found by the chaos campaign).
 */
public final class WorkspaceLock {
  private static final ConcurrentHashMap<Path, ReentrantLock> PER_ROOT = new ConcurrentHashMap<>();

  private final ReentrantLock jvm;
  private final Path lockFile;

  public WorkspaceLock(Path realRoot, Path lockFile) {
    this.jvm = PER_ROOT.computeIfAbsent(realRoot, r -> new ReentrantLock());
    this.lockFile = lockFile;
  }

  @SuppressWarnings("try") // the lock is held by being open, never referenced
  public <T> T with(Supplier<T> body) {
    jvm.lock();
    try {
      if (jvm.getHoldCount() > 1) {
        return body.get();
      }
      try (FileChannel ch =
              FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          FileLock held = acquire(ch)) {
        return body.get();
      } catch (IOException e) {
        throw new RatchetException(
            ErrorCode.STORE_UNAVAILABLE,
            "workspace: cannot lock " + lockFile + ": " + e.getMessage(),
            e);
      }
    } finally {
      jvm.unlock();
    }
  }

  private static FileLock acquire(FileChannel ch) throws IOException {
    long pauseMicros = 200;
    while (true) {
      FileLock lock = ch.tryLock();
      if (lock != null) {
        return lock;
      }
      if (Thread.currentThread().isInterrupted()) {
        throw new IOException("interrupted while waiting for the lock");
      }
      LockSupport.parkNanos(pauseMicros * 1_000);
      pauseMicros = Math.min(pauseMicros * 2, 20_000);
    }
  }
}
