package dev.ratchet.adapters.internal;

import dev.ratchet.json.Canonical;
import dev.ratchet.json.JsonNull;
import dev.ratchet.json.JsonObject;
import dev.ratchet.json.JsonString;
import dev.ratchet.json.JsonValue;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The observable state of a workspace: every visible path with the digest of its content (or of its
 * link target), plus, in a git work tree, the HEAD commit, the porcelain status and the digest of
 * the repository's control files. The state fingerprint is the SHA-256 of canonical {@code {tree,
 * git}}, with a {@code control} member only when a control structure is refused (D29: drift, with
 * its reason); the revision is kept apart, by the receipt journal.
 *
 * @param entries path to {@code sha256 hex}, {@code symlink:<hex>} or {@code directory}
 * @param git the git part, or null outside a git work tree (and when the repository is refused)
 * @param drift why a control structure is refused (a {@code .git} that appeared, redirects or
 *     carries a configuration git would obey), or null
 */
public record TreeState(SortedMap<String, String> entries, GitPart git, String drift) {
  /**
   * HEAD (null on an unborn branch), the exact {@code status --porcelain -z} text, the digest of
   * the control files ({@link GitControl}) and the configuration keys that were not obeyed.
   */
  public record GitPart(String head, String status, String control, List<String> neutralised) {
    public GitPart {
      Objects.requireNonNull(status, "status");
      Objects.requireNonNull(control, "control");
      neutralised = List.copyOf(neutralised);
    }

    public boolean dirty() {
      return !status.isEmpty();
    }

    JsonObject toJson() {
      return JsonObject.builder()
          .put("head", head)
          .put("dirty", dirty())
          .put("status_sha256", Digests.ofText(status))
          .put("control_sha256", control)
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
    JsonObject.Builder b =
        JsonObject.builder().put("tree", new JsonString(treeDigest())).put("git", g);
    if (drift != null) {
      b.put("control", drift);
    }
    return Canonical.sha256Hex(b.build());
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
