package dev.ratchet.adapters.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * What Ratchet keeps of a workspace repository's own configuration (SPEC D29): the configuration is
 * agent-writable bytes, so none of it is obeyed except an allowlist of keys that only describe how
 * the repository is laid out on disk, each with a plain value. Everything else — {@code
 * core.fsmonitor}, {@code core.hooksPath}, {@code core.sshCommand}, {@code core.pager}, {@code
 * diff.external}, textconv, every {@code filter.*} driver, {@code include.path}, {@code
 * includeIf.*} — is dropped ("neutralised"). A key that would redirect git outside the workspace
 * ({@code core.worktree}) or change what the directory is ({@code core.bare = true}, an unknown
 * repository extension) makes the repository refused as drift, never followed.
 *
 * <p>The input is {@code git config --file .git/config --no-includes --list -z} (run in the
 * sandbox: it reads the file and follows nothing), so git's own parser decides what the keys are.
 */
public final class GitConfigFilter {
  /** Keys kept as they are: how the files are compared and stored, nothing that runs or points. */
  private static final Set<String> KEPT =
      Set.of(
          "core.repositoryformatversion",
          "core.filemode",
          "core.symlinks",
          "core.ignorecase",
          "core.precomposeunicode",
          "core.autocrlf",
          "core.eol",
          "core.safecrlf",
          "core.checkstat",
          "core.trustctime",
          "core.logallrefupdates",
          "core.bare",
          "extensions.objectformat");

  /** Extensions git 2.39 knows that change nothing Ratchet reads once dropped. */
  private static final Set<String> DROPPABLE_EXTENSIONS =
      Set.of("extensions.worktreeconfig", "extensions.noop", "extensions.preciousobjects");

  /**
   * Keys that run nothing and point nowhere git follows when it only reads the work tree: allowed
   * as they are when git runs without the sandbox (the operator's explicit opt-out), where the
   * repository's file cannot be replaced.
   */
  private static final List<Pattern> INERT =
      List.of(
          Pattern.compile("remote\\.[^\\n]+\\.(url|fetch|pushurl)"),
          Pattern.compile("branch\\.[^\\n]+\\.(remote|merge|rebase)"),
          Pattern.compile("user\\.(name|email)"),
          Pattern.compile("init\\.defaultbranch"));

  private static final Pattern PLAIN_VALUE = Pattern.compile("[A-Za-z0-9._-]{0,64}");

  /**
   * The verdict on one configuration.
   *
   * @param kept the allowlisted keys with plain values, in order
   * @param dropped every other key (not obeyed when git runs in the sandbox)
   * @param refusal why the repository is refused as drift, or null
   */
  public record Verdict(Map<String, String> kept, List<String> dropped, String refusal) {
    public Verdict {
      kept = java.util.Collections.unmodifiableMap(new TreeMap<>(kept));
      dropped = List.copyOf(dropped);
    }

    /** The dropped keys that would matter without the sandbox (none is inert). */
    public List<String> obeyedWithoutSandbox() {
      return dropped.stream()
          .filter(k -> INERT.stream().noneMatch(p -> p.matcher(k).matches()))
          .toList();
    }

    /** The configuration git reads in the sandbox, in place of the repository's own file. */
    public String sanitisedText() {
      StringBuilder out =
          new StringBuilder("# written by Ratchet: the repository's own file is not obeyed\n");
      String section = null;
      for (Map.Entry<String, String> e : kept.entrySet()) {
        int dot = e.getKey().indexOf('.');
        String s = e.getKey().substring(0, dot);
        if (!s.equals(section)) {
          out.append('[').append(s).append("]\n");
          section = s;
        }
        out.append('\t')
            .append(e.getKey().substring(dot + 1))
            .append(" = ")
            .append(e.getValue())
            .append('\n');
      }
      return out.toString();
    }
  }

  private GitConfigFilter() {}

  /** Judges the {@code --list -z} output of a repository's configuration file. */
  public static Verdict judge(String listZ) {
    Map<String, String> kept = new TreeMap<>();
    List<String> dropped = new ArrayList<>();
    String refusal = null;
    for (String entry : listZ.split("\0")) {
      if (entry.isEmpty()) {
        continue;
      }
      int nl = entry.indexOf('\n');
      String key = (nl < 0 ? entry : entry.substring(0, nl)).toLowerCase(Locale.ROOT);
      String value = nl < 0 ? "true" : entry.substring(nl + 1);
      String why = refusal(key, value);
      if (why != null && refusal == null) {
        refusal = why;
      }
      if (KEPT.contains(key) && PLAIN_VALUE.matcher(value).matches()) {
        kept.put(key, value);
      } else if (!dropped.contains(key)) {
        dropped.add(key);
      }
    }
    return new Verdict(kept, dropped, refusal);
  }

  private static String refusal(String key, String value) {
    if (key.equals("core.worktree")) {
      return "the repository's configuration sets core.worktree, which would point git at another"
          + " directory";
    }
    if (key.equals("core.bare") && !value.equalsIgnoreCase("false")) {
      return "the repository's configuration says core.bare = " + printable(value);
    }
    if (key.equals("core.repositoryformatversion") && !(value.equals("0") || value.equals("1"))) {
      return "the repository format version " + printable(value) + " is unknown";
    }
    if (key.startsWith("extensions.")
        && !key.equals("extensions.objectformat")
        && !DROPPABLE_EXTENSIONS.contains(key)) {
      return "the repository uses the extension "
          + printable(key)
          + ", which Ratchet does not read";
    }
    return null;
  }

  private static String printable(String s) {
    String t = s.length() > 64 ? s.substring(0, 64) + "…" : s;
    StringBuilder out = new StringBuilder("'");
    t.codePoints()
        .forEach(
            c -> {
              if (c < 0x20 || c == 0x7f || Character.getType(c) == Character.FORMAT) {
                out.append(String.format(Locale.ROOT, "\\u%04X", c));
              } else {
                out.appendCodePoint(c);
              }
            });
    return out.append('\'').toString();
  }
}
