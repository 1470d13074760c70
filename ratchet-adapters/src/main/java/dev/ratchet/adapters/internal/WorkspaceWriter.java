package dev.ratchet.adapters.internal;

import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.seam.CrashPoint;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.store.Fence;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The commit protocol of a workspace write, run under the workspace lock:
 *
 * <ol>
 *   <li>write the new content to a temp file in the control directory and fsync it;
 *   <li>read the clock and refuse if the approval has expired; journal an intent record: key,
 *       digest, the file's content digest before and after, the predicted tree digest after, the
 *       pre-state, fence, approval and that instant (write-ahead);
 *   <li>rename the temp file over the target and fsync the target's directory (a delete is an
 *       unlink and a directory fsync) — the external commit;
 *   <li>journal the receipt and drop the intent record in one transaction.
 * </ol>
 *
 * A crash between 3 and 4 leaves an intent record and a renamed file. Before any later operation
 * {@link #reconcilePending} compares the file with the record: the "after" digest means the rename
 * happened, so the receipt is completed exactly as the interrupted call would have; the "before"
 * digest means it did not, so the record is dropped and a retry with the key executes once;
 * anything else means someone else wrote the file, and the record is kept as indeterminate: its key
 * is never executed and never reported as committed (the runtime then sees drift).
 *
 * <p>The receipt's commit time is the instant of step 2, when the approval was last checked; the
 * rename follows within one journal transaction. If the clock has passed the approval's expiry by
 * the time the rename returns, the receipt carries that later time instead, so the runtime sends
 * the run to review rather than trusting it.
 */
public final class WorkspaceWriter {
  public static final String NAMESPACE = "workspace";
  public static final int VERSION = 1;

  private final Path root;
  private final SafePaths paths;
  private final TreeScanner scanner;
  private final Git git;
  private final ReceiptJournal journal;
  private final InstantSource clock;
  private final String instanceId;
  private final int maxFileBytes;
  private final Path tempDir;

  public WorkspaceWriter(
      Path root,
      Path tempDir,
      SafePaths paths,
      TreeScanner scanner,
      Git git,
      ReceiptJournal journal,
      InstantSource clock,
      String instanceId,
      int maxFileBytes) {
    this.root = root;
    this.tempDir = tempDir;
    this.paths = paths;
    this.scanner = scanner;
    this.git = git;
    this.journal = journal;
    this.clock = clock;
    this.instanceId = instanceId;
    this.maxFileBytes = maxFileBytes;
  }

  public AdapterOutcome execute(
      WorkspaceActions.WriteOp op,
      WriteIntent intent,
      String key,
      Fence fence,
      ApprovalBinding approval,
      CrashSeam crash) {
    reconcilePending();
    journal.admitFence(fence.runId(), fence.leaseVersion());
    Optional<Receipt> existing = journal.receipt(key);
    if (existing.isPresent()) {
      Receipt r = existing.get();
      return r.intentDigest().equals(intent.digest())
          ? AdapterOutcome.replayed(r)
          : AdapterOutcome.conflict(r);
    }
    if (journal.intent(key).isPresent()) {
      throw new RatchetException(
          ErrorCode.STALE_OBSERVATION,
          "workspace: an earlier write under this key cannot be proven done or undone"
              + " (the file was changed by someone else); refusing to execute it again");
    }
    if (approval.expiresAtMs() <= clock.millis()) {
      throw RatchetException.approval("workspace: the approval expired before the write");
    }
    return commit(op, intent.digest(), key, fence, approval, crash);
  }

  private AdapterOutcome commit(
      WorkspaceActions.WriteOp op,
      String digest,
      String key,
      Fence fence,
      ApprovalBinding approval,
      CrashSeam crash) {
    SafePaths.Resolved target = paths.resolve("arguments.path", op.path());
    if (git != null) {
      Git.View view = git.open();
      if (view.refusal() != null) {
        throw new RatchetException(
            ErrorCode.PERMISSION, "workspace: the repository is refused: " + view.refusal());
      }
      if (view.reader().ignored(op.path())) {
        throw new RatchetException(
            ErrorCode.PERMISSION,
            "arguments.path: '"
                + op.path()
                + "' is ignored by git, so no observation would see it");
      }
    }
    byte[] old = target.exists() ? readBounded(target.path()) : null;
    String hashBefore = old == null ? null : Canonical.sha256Hex(old);
    if (!Objects.equals(hashBefore, op.expected())) {
      throw new RatchetException(
          ErrorCode.STALE_OBSERVATION,
          "arguments.expected_sha256: the file's content is "
              + (hashBefore == null ? "absent" : hashBefore)
              + ", not "
              + (op.expected() == null ? "absent" : op.expected()));
    }
    byte[] next = newContent(op, old);
    if (next != null && next.length > maxFileBytes) {
      throw RatchetException.contract(
          "arguments.content: the file would exceed the workspace limit of "
              + maxFileBytes
              + " bytes");
    }
    String hashAfter = next == null ? null : Canonical.sha256Hex(next);
    TreeState before = scanner.scan();
    Path temp = tempDir.resolve(Digests.ofText(key).substring(0, 32));
    try {
      Files.deleteIfExists(temp);
      if (next != null) {
        AtomicFiles.writeTemp(temp, next, target.exists() ? target.path() : null);
      }
    } catch (IOException e) {
      deleteQuietly(temp);
      throw new RatchetException(
          ErrorCode.STORE_UNAVAILABLE, "workspace: cannot stage the write: " + e.getMessage(), e);
    }
    long authorizedAt = clock.millis();
    if (approval.expiresAtMs() <= authorizedAt) {
      deleteQuietly(temp);
      throw RatchetException.approval("workspace: the approval expired before the write");
    }
    IntentRecord rec =
        new IntentRecord(
            key,
            digest,
            op.kind(),
            op.path(),
            rel(temp),
            hashBefore,
            hashAfter,
            journal.revision(),
            before.fingerprint(),
            TreeState.treeDigest(before.entriesWith(op.path(), hashAfter)),
            before.head(),
            fence.runId(),
            fence.leaseVersion(),
            approval.approvalFingerprint(),
            authorizedAt,
            false);
    journal.putIntent(rec);
    try {
      if (next == null) {
        AtomicFiles.delete(target.path());
      } else {
        if (target.firstMissingParent() != null) {
          AtomicFiles.createDirectories(
              target.firstMissingParent().getParent(), target.path().getParent());
        }
        AtomicFiles.publish(temp, target.path());
      }
    } catch (IOException e) {
      // Whether the rename happened is decided from the file itself, as after a crash.
      reconcile(rec);
      Optional<Receipt> done = journal.receipt(key);
      if (done.isPresent()) {
        return AdapterOutcome.executed(done.get());
      }
      throw new RatchetException(
          ErrorCode.STORE_UNAVAILABLE,
          "workspace: write of '" + op.path() + "' failed: " + e.getMessage(),
          e);
    }
    crash.reached(CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT);
    long now = clock.millis();
    return AdapterOutcome.executed(
        complete(rec, now >= approval.expiresAtMs() ? now : authorizedAt));
  }

  /**
   * Settles every intent record left by an interrupted write (see the class comment) and removes
   * temp files no record names (a crash before the intent was journaled).
   */
  public void reconcilePending() {
    List<IntentRecord> pending = journal.intents();
    for (IntentRecord rec : pending) {
      if (!rec.indeterminate()) {
        reconcile(rec);
      }
    }
    try (Stream<Path> staged = Files.list(tempDir)) {
      staged.forEach(WorkspaceWriter::deleteQuietly);
    } catch (IOException e) {
      throw new RatchetException(
          ErrorCode.STORE_UNAVAILABLE, "workspace: cannot clean " + rel(tempDir), e);
    }
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      // A leftover temp file is invisible to observations and removed by the next reconcile.
    }
  }

  private void reconcile(IntentRecord rec) {
    String current;
    try {
      Files.deleteIfExists(root.resolve(rec.temp()));
      current = TreeScanner.entryOf(root.resolve(rec.path()));
      if (current != null && current.startsWith("symlink:")) {
        current = "not a regular file";
      }
    } catch (IOException e) {
      throw new RatchetException(
          ErrorCode.STORE_UNAVAILABLE, "workspace: cannot reconcile '" + rec.path() + "'", e);
    }
    if (Objects.equals(current, rec.hashAfter())) {
      complete(rec, rec.authorizedAtMs());
    } else if (Objects.equals(current, rec.hashBefore())) {
      journal.dropIntent(rec.key());
    } else {
      journal.putIntent(rec.asIndeterminate());
    }
  }

  /**
   * Builds and journals the receipt. Its after-fingerprint is the live one only when the live tree
   * is exactly the predicted one on the same HEAD; otherwise someone else changed the workspace
   * too, and the receipt carries a fingerprint no observation can equal, so the runtime sees drift
   * instead of mistaking the foreign change for this write.
   */
  private Receipt complete(IntentRecord rec, long committedAt) {
    TreeState now = scanner.scan();
    boolean explained =
        now.treeDigest().equals(rec.treeAfter()) && Objects.equals(now.head(), rec.headBefore());
    String after =
        explained
            ? now.fingerprint()
            : Canonical.sha256Hex(
                JsonObject.builder()
                    .put("unexplained_after", rec.treeAfter())
                    .put("idempotency_key", rec.key())
                    .build());
    long revision = rec.revisionBefore() + 1;
    Receipt r =
        new Receipt(
            NAMESPACE,
            VERSION,
            Canonical.sha256Hex(
                JsonObject.builder()
                    .put("instance_id", instanceId)
                    .put("revision", revision)
                    .put("idempotency_key", rec.key())
                    .build()),
            rec.key(),
            rec.intentDigest(),
            JsonObject.builder()
                .put("path", rec.path())
                .put("operation", rec.kind())
                .put("content_sha256", rec.hashAfter())
                .put("revision", revision)
                .build(),
            rec.revisionBefore(),
            revision,
            rec.fingerprintBefore(),
            after,
            committedAt,
            rec.fenceRunId(),
            rec.fenceLeaseVersion(),
            rec.approvalFingerprint(),
            rec.path());
    journal.commitReceipt(r);
    return r;
  }

  private static byte[] newContent(WorkspaceActions.WriteOp op, byte[] old) {
    if (op.content() == null) {
      return null;
    }
    byte[] add = op.content().getBytes(StandardCharsets.UTF_8);
    if (!op.kind().equals(WorkspaceActions.APPEND_FILE) || old == null) {
      return add;
    }
    byte[] joined = Arrays.copyOf(old, old.length + add.length);
    System.arraycopy(add, 0, joined, old.length, add.length);
    return joined;
  }

  /** Reads a regular file of at most the size limit, never through a symlink. */
  public byte[] readBounded(Path file) {
    if (hardLinks(file) > 1) {
      // A second name may lie outside the workspace: its content is not ours to read.
      throw new RatchetException(
          ErrorCode.PERMISSION, "path: '" + rel(file) + "' has several hard links; refused");
    }
    try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
      byte[] bytes = in.readNBytes(maxFileBytes + 1);
      if (bytes.length > maxFileBytes) {
        throw RatchetException.contract(
            "path: '" + rel(file) + "' is over the workspace limit of " + maxFileBytes + " bytes");
      }
      return bytes;
    } catch (IOException e) {
      throw new RatchetException(
          ErrorCode.STORE_UNAVAILABLE,
          "workspace: cannot read " + rel(file) + ": " + e.getMessage(),
          e);
    }
  }

  private static int hardLinks(Path file) {
    try {
      return Files.getAttribute(file, "unix:nlink", LinkOption.NOFOLLOW_LINKS) instanceof Integer n
          ? n
          : 1;
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return 1; // No unix view here: nothing more to check.
    }
  }

  private String rel(Path p) {
    return root.relativize(p).toString();
  }
}
