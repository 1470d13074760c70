package dev.ratchet.adapters;

import dev.ratchet.adapter.ActionSpec;
import dev.ratchet.adapter.AdapterOutcome;
import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.EnvironmentAdapter;
import dev.ratchet.adapter.Observation;
import dev.ratchet.adapter.Receipt;
import dev.ratchet.adapter.Verification;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.adapters.internal.AtomicFiles;
import dev.ratchet.adapters.internal.Git;
import dev.ratchet.adapters.internal.ReceiptJournal;
import dev.ratchet.adapters.internal.SafePaths;
import dev.ratchet.adapters.internal.TreeScanner;
import dev.ratchet.adapters.internal.TreeState;
import dev.ratchet.adapters.internal.WorkspaceActions;
import dev.ratchet.adapters.internal.WorkspaceLock;
import dev.ratchet.adapters.internal.WorkspaceVerifier;
import dev.ratchet.adapters.internal.WorkspaceWriter;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.Text;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.seam.Entropy;
import dev.ratchet.seam.Seams;
import dev.ratchet.store.Fence;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A real directory as an {@link EnvironmentAdapter} for coding agents: read, write, append to and
 * delete files under the path rules, verify with expected files or allowlisted commands.
 *
 * <p>Design in one block. Every operation holds the workspace lock (threads, adapter instances and
 * processes). Writes are atomic (temp file, fsync, rename, directory fsync) and conditional on the
 * file's expected content digest. The adapter owns its receipts in its own SQLite journal under
 * {@code .ratchet-adapter/}, written ahead (intent record) and behind (receipt), so a crash between
 * the rename and the receipt is detected and reconciled from the file's content digest before any
 * later call (see {@code WorkspaceWriter} and docs/adapters.md). Fencing tokens older than the
 * newest seen for a run are refused (D8); the approval's expiry is enforced on the adapter's clock
 * (D9). The revision is the number of committed writes; the state fingerprint covers the visible
 * tree and, in a git work tree, HEAD and the porcelain status, so a new base commit or a foreign
 * edit is drift (D13). Paths never pass through a symlink.
 */
public final class WorkspaceAdapter implements EnvironmentAdapter, AutoCloseable {
  public static final String NAMESPACE = WorkspaceWriter.NAMESPACE;
  public static final String CONTROL_DIR = ".ratchet-adapter";
  public static final String DEFAULT_IDENTITY = "workspace-agent";
  public static final int DEFAULT_MAX_FILE_BYTES = 1 << 20;

  private final Path root;
  private final String instanceId;
  private final String identity;
  private final WorkspaceLock lock;
  private final ReceiptJournal journal;
  private final TreeScanner scanner;
  private final WorkspaceActions actions;
  private final WorkspaceWriter writer;
  private final WorkspaceVerifier verifier;
  private volatile CrashSeam crash;

  private WorkspaceAdapter(Builder b, Path realRoot) throws IOException {
    this.root = realRoot;
    this.identity = b.identity;
    this.crash = b.crash;
    Path control = realRoot.resolve(CONTROL_DIR);
    if (Files.isSymbolicLink(control)) {
      throw new RatchetException(
          ErrorCode.PERMISSION, "workspace: " + CONTROL_DIR + " is a symlink");
    }
    if (createDirectoryOnce(control)) {
      AtomicFiles.fsyncDirectory(realRoot);
    }
    Path ignore = control.resolve(".gitignore");
    if (!Files.exists(ignore, LinkOption.NOFOLLOW_LINKS)) {
      // Keeps the control directory out of git's view, hence out of the fingerprint.
      Files.writeString(ignore, "*\n", StandardCharsets.UTF_8);
    }
    Path temp = control.resolve("tmp");
    createDirectoryOnce(temp);
    this.lock = new WorkspaceLock(realRoot, control.resolve("lock"));
    this.journal = lock.with(() -> ReceiptJournal.open(control.resolve("receipts.db")));
    boolean gitWorkTree = lock.with(() -> journal.gitWorkTree(() -> Git.isRepository(realRoot)));
    List<Path> gitHidden = new ArrayList<>(b.sandbox.hidden());
    gitHidden.add(control);
    Git git = gitWorkTree ? new Git(realRoot, temp, b.sandbox, gitHidden) : null;
    Set<String> skipped = new HashSet<>(b.excluded);
    skipped.add(CONTROL_DIR);
    skipped.add(".git");
    this.scanner = new TreeScanner(realRoot, skipped, git);
    SafePaths paths = new SafePaths(realRoot, skipped);
    Entropy entropy = b.entropy;
    this.instanceId = lock.with(() -> journal.instanceId(() -> "workspace-" + entropy.hex128()));
    this.actions = new WorkspaceActions(b.maxFileBytes, b.commands != null);
    this.writer =
        new WorkspaceWriter(
            realRoot, temp, paths, scanner, git, journal, b.clock, instanceId, b.maxFileBytes);
    this.verifier = new WorkspaceVerifier(realRoot, paths, scanner, writer, b.commands);
    lock.with(
        () -> {
          writer.reconcilePending();
          return null;
        });
  }

  public static Builder builder(Path root) {
    return new Builder(root);
  }

  /** Replaces the crash seam (tests: fires after the rename, before the receipt is journaled). */
  public void crashSeam(CrashSeam seam) {
    this.crash = Objects.requireNonNull(seam);
  }

  public Path root() {
    return root;
  }

  @Override
  public String namespace() {
    return NAMESPACE;
  }

  @Override
  public int adapterVersion() {
    return WorkspaceWriter.VERSION;
  }

  @Override
  public List<ActionSpec> actionSpecs() {
    return actions.specs();
  }

  @Override
  public Observation observe() {
    return lock.with(
        () -> {
          writer.reconcilePending();
          return new Observation(
              instanceId, journal.revision(), scanner.scan().fingerprint(), identity);
        });
  }

  /** HEAD and dirty state when the workspace is a git work tree (they are in every fingerprint). */
  public Optional<GitState> gitState() {
    return lock.with(
        () -> {
          TreeState.GitPart g = scanner.scan().git();
          return g == null ? Optional.empty() : Optional.of(new GitState(g.head(), g.dirty()));
        });
  }

  /**
   * Why a control structure of the workspace is refused as drift right now (SPEC D29: a {@code
   * .git} that appeared, redirects outside, or carries configuration git would obey), or empty. The
   * reason is also inside the state fingerprint, so the runtime sees the drift.
   */
  @Override
  public Optional<String> driftEvidence() {
    return lock.with(() -> Optional.ofNullable(scanner.scan().drift()));
  }

  @Override
  public AdapterOutcome execute(
      WriteIntent intent, String idempotencyKey, Fence fence, ApprovalBinding approval) {
    Objects.requireNonNull(fence, "fence");
    Objects.requireNonNull(approval, "approval");
    if (!NAMESPACE.equals(intent.namespace())) {
      throw RatchetException.contract(
          "intent.namespace: '" + intent.namespace() + "' is not '" + NAMESPACE + "'");
    }
    Text.require("idempotency_key", idempotencyKey, Receipt.MAX_KEY_LENGTH);
    WorkspaceActions.WriteOp op = actions.writeOp(intent);
    return lock.with(() -> writer.execute(op, intent, idempotencyKey, fence, approval, crash));
  }

  @Override
  public Optional<Receipt> lookup(String idempotencyKey) {
    Text.require("idempotency_key", idempotencyKey, Receipt.MAX_KEY_LENGTH);
    return lock.with(
        () -> {
          writer.reconcilePending();
          return journal.receipt(idempotencyKey);
        });
  }

  @Override
  public JsonObject read(String kind, JsonObject arguments, Fence fence) {
    if (!WorkspaceActions.READ_FILE.equals(kind)) {
      throw RatchetException.contract("action.kind: '" + kind + "' is not a workspace read");
    }
    actions.validateRead(arguments);
    return lock.with(
        () -> {
          writer.reconcilePending();
          journal.admitFence(fence.runId(), fence.leaseVersion());
          return verifier.readFile(arguments, journal.revision());
        });
  }

  @Override
  public Verification verify(
      String kind, JsonObject arguments, JsonObject expectations, Fence fence) {
    return lock.with(
        () -> {
          writer.reconcilePending();
          journal.admitFence(fence.runId(), fence.leaseVersion());
          return verifier.verify(kind, arguments, expectations, journal.revision());
        });
  }

  @Override
  public void close() {
    journal.close();
  }

  /** Configures and opens a workspace adapter. */
  public static final class Builder {
    private final Path root;
    private InstantSource clock = Seams.systemClock();
    private Entropy entropy = Seams.secureEntropy();
    private String identity = DEFAULT_IDENTITY;
    private int maxFileBytes = DEFAULT_MAX_FILE_BYTES;
    private CommandRunner commands;
    private final Set<String> excluded = new HashSet<>();
    private CrashSeam crash = CrashSeam.NONE;
    private CommandSandbox sandbox = CommandSandbox.required();

    private Builder(Path root) {
      this.root = Objects.requireNonNull(root, "root");
    }

    /** The adapter's own clock: approval expiry and commit times are judged on it. */
    public Builder clock(InstantSource c) {
      this.clock = Objects.requireNonNull(c);
      return this;
    }

    /** Randomness for the instance id minted on first open. */
    public Builder entropy(Entropy e) {
      this.entropy = Objects.requireNonNull(e);
      return this;
    }

    public Builder identity(String id) {
      this.identity = Text.require("identity", id);
      return this;
    }

    public Builder maxFileBytes(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("maxFileBytes must be >= 1");
      }
      this.maxFileBytes = n;
      return this;
    }

    /** Enables the {@code run_command} verifier with these allowlisted commands. */
    public Builder commands(CommandRunner runner) {
      this.commands = Objects.requireNonNull(runner);
      return this;
    }

    /**
     * Top-level names that are neither state nor writable (build output, caches). In a git work
     * tree, files git ignores are not state either, whether excluded here or not.
     */
    public Builder exclude(String... topLevelNames) {
      for (String n : topLevelNames) {
        excluded.add(Text.require("excluded name", n));
      }
      return this;
    }

    public Builder crashSeam(CrashSeam seam) {
      this.crash = Objects.requireNonNull(seam);
      return this;
    }

    /**
     * Where git runs when the workspace is a git work tree (SPEC D29; default {@link
     * CommandSandbox#required()}): inside bubblewrap over a read-only workspace, or, with the
     * operator's explicit opt-out, as this process with a cleared environment and only over a
     * repository whose configuration holds nothing git would obey. Its hidden paths (the Ratchet
     * home) are hidden from git too. Commands take their own runner's sandbox.
     */
    public Builder sandbox(CommandSandbox s) {
      this.sandbox = Objects.requireNonNull(s);
      return this;
    }

    /** Opens (and on first use initialises) the workspace; the root must be a directory. */
    public WorkspaceAdapter open() {
      try {
        Path real = root.toRealPath();
        if (!Files.isDirectory(real)) {
          throw RatchetException.contract("workspace: " + root + " is not a directory");
        }
        return new WorkspaceAdapter(this, real);
      } catch (IOException e) {
        throw new RatchetException(
            ErrorCode.STORE_UNAVAILABLE,
            "workspace: cannot open " + root + ": " + e.getMessage(),
            e);
      }
    }
  }

  /**
   * Creates {@code dir} unless it is already a directory; true when this call created it. Two
   * processes opening one workspace at once may both try: the loser finds the winner's directory.
   */
  private static boolean createDirectoryOnce(Path dir) throws IOException {
    if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      return false;
    }
    try {
      Files.createDirectory(dir);
      return true;
    } catch (java.nio.file.FileAlreadyExistsException e) {
      if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
        return false;
      }
      throw e;
    }
  }
}
