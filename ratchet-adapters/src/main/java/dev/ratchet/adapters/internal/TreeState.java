package dev.ratchet.adapters.internal;

import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonNull;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The observable state of a workspace: every visible path with the digest of its content (or of its
 * link target), plus, in a git work tree, the HEAD commit and the porcelain status. The state
 * fingerprint is the SHA-256 of canonical {@code {tree, git}}; the revision is kept apart, by the
 * receipt journal.
 *
 * @param entries path to {@code sha256 hex}, {@code symlink:<hex>} or {@code directory}
 * @param git the git part, or null outside a git work tree
 */
public record TreeState(SortedMap<String, String> entries, GitPart git) {
  /** HEAD (null on an unborn branch) and the exact {@code status --porcelain -z} text. */
  public record GitPart(String head, String status) {
    public GitPart {
      Objects.requireNonNull(status, "status");
    }

    public boolean dirty() {
      return !status.isEmpty();
    }

    JsonObject toJson() {
      return JsonObject.builder()
          .put("head", head)
          .put("dirty", dirty())
          .put("status_sha256", Digests.ofText(status))
          .build();
    }
  }

  public TreeState {
    entries = Collections.unmodifiableSortedMap(new TreeMap<>(entries));
  }

  /** The digest of the path map alone (what a write can predict before it happens). */
  public String treeDigest() {
    return treeDigest(entries);
  }

  public static String treeDigest(Map<String, String> entries) {
    JsonObject.Builder b = JsonObject.builder();
    entries.forEach(b::put);
    return Canonical.sha256Hex(b.build());
  }

  public String fingerprint() {
    JsonValue g = git == null ? JsonNull.INSTANCE : git.toJson();
    return Canonical.sha256Hex(
        JsonObject.builder().put("tree", new JsonString(treeDigest())).put("git", g).build());
  }

  /** The entry of {@code path}, or null. */
  public String entry(String path) {
    return entries.get(path);
  }

  /** This tree with one path set to {@code digest}, or removed when {@code digest} is null. */
  public SortedMap<String, String> entriesWith(String path, String digest) {
    TreeMap<String, String> copy = new TreeMap<>(entries);
    if (digest == null) {
      copy.remove(path);
    } else {
      copy.put(path, digest);
    }
    return copy;
  }

  public String head() {
    return git == null ? null : git.head();
  }
}
