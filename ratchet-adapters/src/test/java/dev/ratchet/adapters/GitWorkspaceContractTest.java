package dev.ratchet.adapters;

import java.nio.file.Path;

/** The same contract inside a git work tree, where HEAD and status are part of every state. */
class GitWorkspaceContractTest extends WorkspaceAdapterContractTest {
  @Override
  void prepare(Path dir) {
    super.prepare(dir);
    Workspaces.put(dir, ".gitignore", "build/\n");
    Workspaces.git(dir, "init", "-q", "-b", "main");
    Workspaces.git(dir, "add", "-A");
    Workspaces.git(dir, "commit", "-q", "-m", "base");
  }
}
