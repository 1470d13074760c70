package dev.ratchet.harness.demo;

import dev.ratchet.Ratchet;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.jdbc.Database;
import dev.ratchet.jdbc.JdbcStore;
import dev.ratchet.jdbc.OpenMode;
import dev.ratchet.jdbc.StoreOptions;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.seam.Entropy;
import dev.ratchet.sign.Ed25519;
import dev.ratchet.sign.KeyRing;
import dev.ratchet.sign.Pem;
import dev.ratchet.sign.Role;
import dev.ratchet.sign.SecretKeys;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.sign.TrustRoot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;

/**
 * The demo's home directory, in the {@code ratchet} command line's documented layout
 * (docs/adr/key-file-format.md), written and read with the library's public key-file API: the
 * checkpoint key {@code keys/ckpt-1.key} (named by {@code keys/active}), the approver's and the
 * reviewer's own Ed25519 keys under {@code identities/}, their public keys in {@code approvers/}
 * and {@code reviewers/}, and the split SQLite store (content and marks in two files, so the
 * split-store crash window exists too).
 */
record DemoHome(Path dir) {
  static final String CHECKPOINT_KEY = "ckpt-1";
  static final String APPROVER = "alice";
  static final String REVIEWER = "rita";

  /** Creates the checkpoint key and both people's identities, each trusted for its role. */
  void create(Entropy entropy) {
    Path keys = privateDir(dir.resolve("keys"));
    SecretKeys.writeNew(keys.resolve(CHECKPOINT_KEY + ".key"), entropy);
    write(keys.resolve("active"), CHECKPOINT_KEY + "\n");
    identity(Role.APPROVER, APPROVER, entropy);
    identity(Role.REVIEWER, REVIEWER, entropy);
  }

  private void identity(Role role, String name, Entropy entropy) {
    SigningKey key = SigningKey.of(name, Ed25519.generate(entropy));
    Path own = privateDir(dir.resolve("identities").resolve(role.noun()));
    Pem.writePrivate(own.resolve(name + ".key"), key);
    Pem.writePublic(own.resolve(name + ".pub"), key.trusted());
    Pem.writePublic(privateDir(trustDir(role)).resolve(name + ".pub"), key.trusted());
  }

  /** The signing key of {@code name} in {@code role} (the operator's side only, SPEC D19). */
  SigningKey signer(Role role, String name) {
    return Pem.readPrivate(
        dir.resolve("identities").resolve(role.noun()).resolve(name + ".key"), name);
  }

  KeyRing checkpointKeys() {
    Path file = dir.resolve("keys").resolve(CHECKPOINT_KEY + ".key");
    return KeyRing.of(SecretKeys.fromFile(CHECKPOINT_KEY, file, ErrorCode.CHECKPOINT));
  }

  private TrustRoot trust(Role role, String name) {
    return TrustRoot.of(role, List.of(Pem.readPublic(trustDir(role).resolve(name + ".pub"), name)));
  }

  private Path trustDir(Role role) {
    return dir.resolve(role.noun() + "s");
  }

  /** The run's store: created by the worker that starts the run, only opened by the others. */
  JdbcStore store(InstantSource clock, boolean create, CrashSeam seam) {
    StoreOptions options =
        StoreOptions.defaults(clock)
            .withOpenMode(create ? OpenMode.CREATE : OpenMode.MUST_EXIST)
            .withCrashSeam(seam);
    return JdbcStore.split(
        Database.sqlite(dir.resolve("marks.db")),
        Database.sqlite(dir.resolve("content.db")),
        options);
  }

  /** The library's front door over {@code store}, with this home's keys and trust roots. */
  Ratchet ratchet(
      JdbcStore store,
      String workerId,
      Duration leaseTtl,
      CrashSeam seam,
      InstantSource clock,
      Entropy entropy) {
    return Ratchet.builder()
        .store(store)
        .leases(store)
        .checkpointKeys(checkpointKeys())
        .approvers(trust(Role.APPROVER, APPROVER))
        .reviewers(trust(Role.REVIEWER, REVIEWER))
        .clock(clock)
        .entropy(entropy)
        .crashSeam(seam)
        .workerId(workerId)
        .leaseTtl(leaseTtl)
        .build();
  }

  private static Path privateDir(Path d) {
    try {
      return Files.createDirectories(
          d, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } catch (IOException e) {
      throw new RatchetException(ErrorCode.INTERNAL, d + ": cannot be created: " + e.getMessage());
    }
  }

  private static void write(Path f, String text) {
    try {
      Files.writeString(f, text, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new RatchetException(ErrorCode.INTERNAL, f + ": cannot be written: " + e.getMessage());
    }
  }
}
