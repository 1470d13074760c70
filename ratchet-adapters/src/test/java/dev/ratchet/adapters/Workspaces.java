package dev.ratchet.adapters;

import dev.ratchet.adapter.ApprovalBinding;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonObject;
import dev.ratchet.store.Fence;
import dev.ratchet.testkit.ManualClock;
import dev.ratchet.testkit.SeededEntropy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Shared helpers for the workspace tests: intents, fences, files and a git CLI. */
public final class Workspaces {
  public static final Instant START = Instant.parse("2026-07-18T09:00:00Z");

  private Workspaces() {}

  public static ManualClock clock() {
    return new ManualClock(START);
  }

  static WorkspaceAdapter.Builder builder(Path root, ManualClock clock) {
    return WorkspaceAdapter.builder(root).clock(clock).entropy(new SeededEntropy(42));
  }

  static Fence fence(long version) {
    return new Fence("run-1", "worker", version);
  }

  static String sha(String content) {
    return Canonical.sha256Hex(content);
  }

  static WriteIntent write(String path, String content, String expectedContent) {
    return intent("write_file", path, content, expectedContent, "reversible_write");
  }

  static WriteIntent append(String path, String content, String expectedContent) {
    return intent("append_file", path, content, expectedContent, "irreversible_write");
  }

  static WriteIntent delete(String path, String expectedContent) {
    JsonObject args =
        JsonObject.builder().put("path", path).put("expected_sha256", sha(expectedContent)).build();
    return new WriteIntent(WorkspaceAdapter.NAMESPACE, "delete_file", args, "irreversible_write");
  }

  private static WriteIntent intent(
      String kind, String path, String content, String expectedContent, String risk) {
    JsonObject args =
        JsonObject.builder()
            .put("path", path)
            .put("content", content)
            .put("expected_sha256", expectedContent == null ? null : sha(expectedContent))
            .build();
    return new WriteIntent(WorkspaceAdapter.NAMESPACE, kind, args, risk);
  }

  static ApprovalBinding none() {
    return ApprovalBinding.NONE;
  }

  static String read(Path p) {
    try {
      return Files.readString(p, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void put(Path root, String rel, String content) {
    try {
      Path p = root.resolve(rel);
      Files.createDirectories(p.getParent());
      Files.writeString(p, content, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static int count(String haystack, String needle) {
    int n = 0;
    for (int i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1)) {
      n++;
    }
    return n;
  }

  /** Runs git in {@code root} with a fixed identity; fails the test on a non-zero exit. */
  static void git(Path root, String... args) {
    List<String> argv = new ArrayList<>(List.of("git", "-C", root.toString()));
    argv.addAll(
        List.of(
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.invalid",
            "-c",
            "commit.gpgsign=false"));
    argv.addAll(List.of(args));
    try {
      Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
      p.getOutputStream().close();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (p.waitFor() != 0) {
        throw new IllegalStateException("git " + String.join(" ", args) + " failed: " + out);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
