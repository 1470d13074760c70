package dev.ratchet.cli;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonValue;
import dev.ratchet.ops.Home;
import dev.ratchet.ops.KeyConfig;
import dev.ratchet.ops.KeyFiles;
import dev.ratchet.ops.Services;
import dev.ratchet.ops.Session;
import dev.ratchet.ops.Settings;
import dev.ratchet.ops.StoreFactory;
import dev.ratchet.ops.Stores;
import dev.ratchet.ops.TaskFile;
import dev.ratchet.ops.Views;
import dev.ratchet.seam.CrashSeam;
import dev.ratchet.sign.KeyRing;
import dev.ratchet.sign.Role;
import dev.ratchet.sign.SecretKey;
import dev.ratchet.sign.SigningKey;
import dev.ratchet.store.CheckpointStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ratchet keys generate|rotate|list}: key files, never their contents (D15). */
@Command(
    name = "keys",
    mixinStandardHelpOptions = true,
    description =
        "Create, rotate and list keys. Key files are mode 0600; material is never printed.",
    subcommands = {
      KeysCommand.Generate.class,
      KeysTrustCommand.class,
      KeysCommand.Rotate.class,
      KeysCommand.ListKeys.class
    })
final class KeysCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new picocli.CommandLine.ParameterException(
        spec.commandLine(), "a subcommand is required: generate, trust, rotate or list");
  }

  /** {@code keys generate}. */
  @Command(
      name = "generate",
      mixinStandardHelpOptions = true,
      description =
          "Create a key. A checkpoint key (32 bytes, HMAC) goes to <home>/keys, mode 0600 (the"
              + " first one becomes the active signing key). An approver, reviewer or operator key"
              + " is an Ed25519 pair: the private key (PKCS#8 PEM, mode 0600) in"
              + " <home>/identities/<role>/<name>.key and its public key (X.509 PEM) beside it;"
              + " 'keys trust' installs the public key on a worker.")
  static final class Generate extends CliCommand {
    @Mixin CommonOptions common;

    @Option(
        names = "--role",
        defaultValue = "checkpoint",
        paramLabel = "ROLE",
        description = "checkpoint (default), approver, reviewer or operator.")
    String role;

    @Option(
        names = "--id",
        paramLabel = "ID",
        description = "Checkpoint key id (the file name; default: next ckpt-N).")
    String id;

    @Option(
        names = "--name",
        paramLabel = "NAME",
        description =
            "Approver, reviewer or operator: the person's name (a label; the key id derives from"
                + " the key).")
    String name;

    @Option(
        names = "--out",
        paramLabel = "FILE",
        description =
            "Write the key to FILE instead (a checkpoint key's id is the file name without .key;"
                + " an Ed25519 key's public half goes beside it as <name>.pub).")
    Path out;

    Generate(Services services) {
      super(services);
    }

    @Override
    public Integer call() {
      Settings settings = common.settings(null);
      Home home = settings.resolvedHome();
      if (!role.equals("checkpoint")) {
        return generatePair(home, KeyConfig.role("--role", role, "checkpoint"));
      }
      if (name != null) {
        throw RatchetException.contract("--name: only for approver, reviewer and operator keys");
      }
      Path file;
      String keyId;
      if (out != null) {
        keyId = KeyConfig.idOf(out);
        if (id != null && !id.equals(keyId)) {
          throw RatchetException.contract(
              "--id: a key's id is its file name: omit --id with --out");
        }
        file = out;
      } else {
        keyId =
            id != null ? KeyConfig.requireId("--id", id) : KeyFiles.nextCheckpointId(home.keys());
        file = home.keys().resolve(keyId + KeyConfig.SUFFIX);
      }
      KeyFiles.create(file, services.entropy());
      out().println("created checkpoint key '" + keyId + "' in " + file + " (mode 0600)");
      if (out == null && KeyFiles.activateIfNone(home.keys(), keyId)) {
        out().println("'" + keyId + "' is the active checkpoint signing key");
      }
      return 0;
    }

    private int generatePair(Home home, Role r) {
      if (id != null) {
        throw RatchetException.contract(
            "--id: an Ed25519 key's id derives from the key; name its owner with --name");
      }
      if (name == null) {
        throw RatchetException.contract(
            "--name: an " + r.noun() + " key needs the person's name, e.g. --name alice");
      }
      String label = KeyConfig.requireId("--name", name);
      Path file = out != null ? out : home.identity(r, label);
      SigningKey key = KeyConfig.createIdentity(file, label, services.entropy());
      Path pub = KeyConfig.publicFileOf(file);
      out()
          .println(
              "created "
                  + r.noun()
                  + " key "
                  + key.keyId()
                  + " for '"
                  + label
                  + "': private key "
                  + file
                  + " (mode 0600, keep it to yourself), public key "
                  + pub);
      out()
          .println(
              "install the public key on every worker: 'ratchet keys trust --role "
                  + r.noun()
                  + " "
                  + pub
                  + "'");
      return 0;
    }
  }

  /** {@code keys rotate}. */
  @Command(
      name = "rotate",
      mixinStandardHelpOptions = true,
      description =
          "Create a new checkpoint key, re-sign every run's current checkpoint with it after"
              + " verifying with the old key (nothing is executed), and make it the active key."
              + " Old keys keep verifying until you delete them; 'keys list' shows which runs"
              + " each key still signs.")
  static final class Rotate extends CliCommand {
    @Mixin CommonOptions common;

    @Option(
        names = "--id",
        paramLabel = "ID",
        description = "Id of the new key (default: next ckpt-N).")
    String id;

    @Option(
        names = "--new-key-file",
        paramLabel = "FILE",
        description =
            "With --key-file or $RATCHET_CHECKPOINT_KEY: the new key's file (created if absent);"
                + " use it as the first --key-file afterwards.")
    Path newKeyFile;

    Rotate(Services services) {
      super(services);
    }

    @Override
    public Integer call() {
      Settings settings = common.settings(null);
      Home home = settings.resolvedHome();
      boolean directory =
          settings.keyFiles().isEmpty() && System.getenv(KeyConfig.ENV_CHECKPOINT_KEY) == null;
      if (!directory && newKeyFile == null) {
        throw RatchetException.contract(
            "--new-key-file: required when the keys come from --key-file or "
                + KeyConfig.ENV_CHECKPOINT_KEY);
      }
      if (directory && newKeyFile != null) {
        throw RatchetException.contract(
            "--new-key-file: only with --key-file; the key directory "
                + home.keys()
                + " names its own files");
      }
      try (Session session =
          Session.open(services, settings, StoreFactory.Mode.MUST_EXIST, CrashSeam.NONE)) {
        KeyRing old = session.keys();
        Path file =
            directory
                ? home.keys()
                    .resolve(
                        (id != null
                                ? KeyConfig.requireId("--id", id)
                                : KeyFiles.nextCheckpointId(home.keys()))
                            + KeyConfig.SUFFIX)
                : newKeyFile;
        if (!Files.exists(file)) {
          KeyFiles.create(file, services.entropy());
        }
        SecretKey next = KeyConfig.checkpointKey(file);
        KeyRing rotated = old.rotate(next);
        out().println("new checkpoint key '" + next.id() + "' in " + file + " (mode 0600)");
        int exit = 0;
        int done = 0;
        for (CheckpointStore.RunRef ref : session.store().runs()) {
          try {
            TaskFile tf = session.taskFor(ref);
            boolean resigned =
                session
                    .ratchet(
                        "cli-rotate-" + ProcessHandle.current().pid(),
                        Session.DEFAULT_LEASE_TTL,
                        CrashSeam.NONE,
                        rotated)
                    .resign(tf.task(), ref.runId(), session.adapter(tf, false));
            out()
                .println(
                    "  run "
                        + ref.runId()
                        + (resigned ? ": re-signed with " : ": already signed with ")
                        + next.id());
            done++;
          } catch (RatchetException e) {
            err().println("  run " + ref.runId() + ": NOT re-signed: " + e.getMessage());
            exit = exit == 0 ? e.code().exitCode() : exit;
          }
        }
        if (directory) {
          KeyFiles.activate(home.keys(), next.id());
          out().println("'" + next.id() + "' is now the active checkpoint signing key");
        }
        out()
            .println(
                done
                    + " run(s) re-signed or current; old key(s) "
                    + String.join(", ", old.keyIds())
                    + " still verify until removed"
                    + (exit == 0
                        ? ""
                        : " (some runs were not re-signed: see above, then rotate again)"));
        return exit;
      }
    }
  }

  /** {@code keys list}. */
  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "List key ids, files, modes and which runs each checkpoint key signs.")
  static final class ListKeys extends CliCommand {
    @Mixin CommonOptions common;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    ListKeys(Services services) {
      super(services);
    }

    @Override
    public Integer call() {
      Settings settings = common.settings(null);
      Home home = settings.resolvedHome();
      Map<String, Integer> signs = runsByKey(settings);
      List<JsonValue> rows = new ArrayList<>();
      if (!settings.keyFiles().isEmpty()) {
        for (int i = 0; i < settings.keyFiles().size(); i++) {
          Path f = settings.keyFiles().get(i);
          rows.add(KeyFiles.describe("checkpoint", f, i == 0 ? "active" : "verifies", signs));
        }
      } else if (System.getenv(KeyConfig.ENV_CHECKPOINT_KEY) != null) {
        String envId = System.getenv(KeyConfig.ENV_CHECKPOINT_KEY_ID);
        String keyId = envId == null ? "checkpoint" : envId;
        rows.add(
            JsonObject.builder()
                .put("role", "checkpoint")
                .put("id", keyId)
                .put("file", "$" + KeyConfig.ENV_CHECKPOINT_KEY)
                .put("mode", "-")
                .put("status", "active")
                .put("runs_signed", signs.getOrDefault(keyId, 0))
                .build());
      } else {
        String active = KeyFiles.activeId(home.keys());
        KeyConfig.keyFiles(home.keys())
            .forEach(
                (keyId, f) ->
                    rows.add(
                        KeyFiles.describe(
                            "checkpoint", f, keyId.equals(active) ? "active" : "verifies", signs)));
      }
      for (Role r : Role.values()) {
        KeyConfig.files(settings.trustDir(r), KeyConfig.PUBLIC_SUFFIX)
            .forEach((k, f) -> rows.add(KeyFiles.describe(r.noun(), f, "trusted", signs)));
      }
      if (json) {
        out()
            .println(Canonical.string(JsonObject.builder().put("keys", Views.array(rows)).build()));
        return 0;
      }
      if (rows.isEmpty()) {
        out().println("no keys ('ratchet keys generate' creates the checkpoint key)");
        return 0;
      }
      Table t = new Table("ROLE", "ID", "FILE", "MODE", "STATUS", "RUNS SIGNED");
      for (JsonValue v : rows) {
        JsonObject r = (JsonObject) v;
        t.row(
            Views.text(r, "role"),
            Views.text(r, "id"),
            Views.text(r, "file"),
            Views.text(r, "mode"),
            Views.text(r, "status"),
            Views.text(r, "role").equals("checkpoint") ? Views.text(r, "runs_signed") : "-");
      }
      t.print(out());
      return 0;
    }

    /** How many runs' current checkpoints each key id signs; empty when there is no store. */
    private Map<String, Integer> runsByKey(Settings settings) {
      Map<String, Integer> out = new HashMap<>();
      try (Stores stores =
          services
              .stores()
              .open(
                  settings.storeSpec(),
                  settings.markSpec(),
                  StoreFactory.Mode.MUST_EXIST,
                  services.clock(),
                  CrashSeam.NONE,
                  1)) {
        for (CheckpointStore.RunRef ref : stores.checkpoints().runs()) {
          stores
              .checkpoints()
              .load(ref.taskId(), ref.runId())
              .ifPresent(r -> out.merge(r.envelope().declaredKeyId().orElse("?"), 1, Integer::sum));
        }
      } catch (RatchetException e) {
        if (e.code() != ErrorCode.STORE_UNAVAILABLE) {
          throw e;
        }
      }
      return out;
    }
  }
}
