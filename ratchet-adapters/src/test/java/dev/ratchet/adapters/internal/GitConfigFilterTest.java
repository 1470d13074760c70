package dev.ratchet.adapters.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** SPEC D29: what of a repository's configuration is kept, dropped, or refused as drift. */
class GitConfigFilterTest {
  private static String list(String... keyValues) {
    StringBuilder b = new StringBuilder();
    for (String kv : keyValues) {
      b.append(kv.replaceFirst("=", "\n")).append('\0');
    }
    return b.toString();
  }

  @Test
  void everyKeyThatRunsSomethingIsDroppedAndLayoutKeysAreKept() {
    GitConfigFilter.Verdict v =
        GitConfigFilter.judge(
            list(
                "core.repositoryformatversion=0",
                "core.filemode=true",
                "core.bare=false",
                "core.fsmonitor=/ws/x.sh",
                "core.hookspath=/ws/hooks",
                "core.sshcommand=/ws/x.sh",
                "core.pager=/ws/x.sh",
                "diff.external=/ws/x.sh",
                "diff.x.textconv=/ws/x.sh",
                "filter.x.clean=/ws/x.sh",
                "filter.x.smudge=/ws/x.sh",
                "filter.x.process=/ws/x.sh",
                "include.path=../evil.cfg",
                "includeif.gitdir:/.path=../evil.cfg",
                "core.excludesfile=/etc/shadow"));
    assertThat(v.refusal()).isNull();
    assertThat(v.kept())
        .containsOnlyKeys("core.repositoryformatversion", "core.filemode", "core.bare");
    assertThat(v.dropped())
        .contains(
            "core.fsmonitor",
            "core.hookspath",
            "core.sshcommand",
            "core.pager",
            "diff.external",
            "diff.x.textconv",
            "filter.x.clean",
            "filter.x.smudge",
            "filter.x.process",
            "include.path",
            "includeif.gitdir:/.path",
            "core.excludesfile");
    assertThat(v.sanitisedText())
        .contains("repositoryformatversion = 0")
        .doesNotContain("/ws/", "evil", "shadow");
    assertThat(v.obeyedWithoutSandbox()).containsAll(v.dropped());
  }

  @Test
  void aKeptKeyWithAValueThatIsNotPlainIsDropped() {
    GitConfigFilter.Verdict v = GitConfigFilter.judge(list("core.autocrlf=true\n[x]\n\tfoo = 1"));
    assertThat(v.kept()).isEmpty();
    assertThat(v.dropped()).containsExactly("core.autocrlf");
  }

  @Test
  void redirectsAndUnknownExtensionsAreRefused() {
    assertThat(GitConfigFilter.judge(list("core.worktree=/elsewhere")).refusal())
        .contains("core.worktree");
    assertThat(GitConfigFilter.judge(list("core.bare=true")).refusal()).contains("core.bare");
    assertThat(GitConfigFilter.judge(list("core.repositoryformatversion=2")).refusal())
        .contains("format version");
    assertThat(GitConfigFilter.judge(list("extensions.partialclone=origin")).refusal())
        .contains("extensions.partialclone");
    assertThat(GitConfigFilter.judge(list("extensions.objectformat=sha256")).refusal()).isNull();
  }

  @Test
  void inertKeysAreAllowedWithoutTheSandboxAndNothingElseIs() {
    GitConfigFilter.Verdict v =
        GitConfigFilter.judge(
            list(
                "remote.origin.url=https://example.invalid/x.git",
                "branch.main.remote=origin",
                "user.name=Ada",
                "core.fsmonitor=true"));
    assertThat(v.obeyedWithoutSandbox()).containsExactly("core.fsmonitor");
  }

  @Test
  void aRefusalEscapesControlCharacters() {
    assertThat(GitConfigFilter.judge(list("core.bare=\u202Etrue")).refusal())
        .contains("\\u202E")
        .doesNotContain("\u202E");
  }
}
