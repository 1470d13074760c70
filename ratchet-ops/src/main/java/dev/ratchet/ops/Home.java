package dev.ratchet.ops;

import java.nio.file.Path;

/**
 * The command line's local directory ({@code --home}, default {@code ./.ratchet}): the default
 * SQLite store, the checkpoint key directory, the approver and reviewer trust directories (public
 * keys only), the operator's own signing keys ({@code identities/}, never needed by a worker), and
 * the recorded task files that {@code resume} and the other commands look runs up in.
 */
public record Home(Path dir) {
  public static final String ACTIVE = "active";

  /**
   * Mode 0700 for every directory the command line creates in the home (and for a store's
   * directory): keys, task copies and the store are nobody else's to list or read.
   */
  public static final java.nio.file.attribute.FileAttribute<?> PRIVATE_DIRECTORY =
      java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
          java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));

  public Path defaultStore() {
    return dir.resolve("ratchet.db");
  }

  /** Checkpoint keys: {@code <id>.key} files and the {@code active} file naming the signer. */
  public Path keys() {
    return dir.resolve("keys");
  }

  /** Trusted approver public keys: {@code <name>.pub} (X.509 PEM). */
  public Path approvers() {
    return dir.resolve("approvers");
  }

  /** Trusted reviewer public keys: {@code <name>.pub} (X.509 PEM). */
  public Path reviewers() {
    return dir.resolve("reviewers");
  }

  /** Trusted operator public keys (who may cancel or submit): {@code <name>.pub} (X.509 PEM). */
  public Path operators() {
    return dir.resolve("operators");
  }

  /**
   * This operator's own Ed25519 keys for {@code role}: {@code <name>.key} (PKCS#8 PEM, 0600) and
   * {@code <name>.pub}. A worker's home need not (and should not) hold any.
   */
  public Path identities(dev.ratchet.sign.Role role) {
    return dir.resolve("identities").resolve(role.noun());
  }

  public Path identity(dev.ratchet.sign.Role role, String name) {
    return identities(role).resolve(name + ".key");
  }

  /** Caches: sqlite-jdbc's native library, extracted once (issue 17). */
  public Path cache() {
    return dir.resolve("cache");
  }

  /** Task files by the SHA-256 of their canonical JSON. */
  public Path tasks() {
    return dir.resolve("tasks");
  }

  /** One small file per run naming its recorded task file. */
  public Path runs() {
    return dir.resolve("runs");
  }
}
