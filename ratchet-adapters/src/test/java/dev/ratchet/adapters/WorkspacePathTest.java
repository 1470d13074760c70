package dev.ratchet.adapters;

import static dev.ratchet.adapters.Workspaces.fence;
import static dev.ratchet.adapters.Workspaces.none;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratchet.adapter.Observation;
import dev.ratchet.adapter.WriteIntent;
import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Bad paths and symlinks get a typed error and change nothing, inside or outside the root. */
class WorkspacePathTest {
  @TempDir Path base;
  Path root;
  Path outside;
  WorkspaceAdapter ws;

  @BeforeEach
  void open() throws IOException {
    root = Files.createDirectory(base.resolve("ws"));
    outside = Files.createDirectory(base.resolve("outside"));
    Workspaces.put(outside, "secret.txt", "secret");
    Workspaces.put(root, "app.py", "print(1)\n");
    Files.createSymbolicLink(root.resolve("escape"), outside);
    Files.createSymbolicLink(root.resolve("link.txt"), outside.resolve("secret.txt"));
    Files.createSymbolicLink(root.resolve("inner.txt"), root.resolve("app.py"));
    ws = Workspaces.builder(root, Workspaces.clock()).open();
  }

  @AfterEach
  void close() {
    ws.close();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "../outside/secret.txt",
        "/etc/passwd",
        "a//b",
        "./a",
        "a/",
        "a/./b",
        "a\\b",
        "a/../app.py",
        ""
      })
  void malformedPathsAreContractErrors(String path) {
    refused(Workspaces.write(path, "x", null), ErrorCode.CONTRACT);
  }

  @ParameterizedTest
  @ValueSource(strings = {"escape/secret.txt", "link.txt", "inner.txt", "escape/new.txt"})
  void pathsThroughSymlinksAreRefused(String path) {
    refused(Workspaces.write(path, "x", null), ErrorCode.PERMISSION);
    assertThat(Workspaces.read(outside.resolve("secret.txt"))).isEqualTo("secret");
    assertThat(outside.resolve("new.txt")).doesNotExist();
  }

  @ParameterizedTest
  @ValueSource(strings = {".ratchet-adapter/receipts.db", ".ratchet-adapter/tmp/x", ".git/config"})
  void reservedNamesAreRefused(String path) {
    refused(Workspaces.write(path, "x", null), ErrorCode.PERMISSION);
  }

  @Test
  void symlinksAreRefusedForReadsToo() {
    for (String p : new String[] {"link.txt", "escape/secret.txt"}) {
      assertThatThrownBy(
              () -> ws.read("read_file", JsonObject.builder().put("path", p).build(), fence(1)))
          .isInstanceOfSatisfying(
              RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.PERMISSION));
    }
  }

  @Test
  void aHardLinkedFileIsNotRead() throws IOException {
    Files.createLink(root.resolve("hard.txt"), outside.resolve("secret.txt"));
    assertThatThrownBy(
            () ->
                ws.read(
                    "read_file", JsonObject.builder().put("path", "hard.txt").build(), fence(1)))
        .isInstanceOfSatisfying(
            RatchetException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.PERMISSION));
  }

  @Test
  void aDirectoryIsNotAFile() throws IOException {
    Files.createDirectory(root.resolve("dir"));
    refused(Workspaces.write("dir", "x", null), ErrorCode.CONTRACT);
    refused(Workspaces.write("app.py/x", "x", null), ErrorCode.CONTRACT);
  }

  private void refused(WriteIntent intent, ErrorCode code) {
    Observation before = ws.observe();
    assertThatThrownBy(() -> ws.execute(intent, "k-bad", fence(1), none()))
        .isInstanceOfSatisfying(RatchetException.class, e -> assertThat(e.code()).isEqualTo(code));
    assertThat(ws.observe()).isEqualTo(before);
    assertThat(ws.lookup("k-bad")).isEmpty();
  }
}
