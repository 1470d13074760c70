package dev.ratchet.jdbc;

import dev.ratchet.error.RatchetException;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.SetHead;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * What {@link TraceAudit} found when it walked a set's hash chain against the signed count and
 * head. Intact means no finding.
 *
 * @param stored the count and chain head as found in the store
 * @param signed the count and head the caller's verified checkpoint signs
 */
public record AuditReport(RecordSet set, SetHead stored, SetHead signed, List<Finding> findings) {

  /** The kinds of damage the walk tells apart. */
  public enum Kind {
    /** Sequence numbers are missing: records were deleted. */
    MISSING,
    /** A record does not continue the chain before it: its key or body was changed. */
    EDITED,
    /** A record is intact but sits at another position than the one its chain was made for. */
    REORDERED,
    /** The store holds fewer records than were signed: the newest ones were removed. */
    TRUNCATED,
    /** The store holds records beyond the signed count: they were appended without a commit. */
    APPENDED,
    /** Every link holds, but the chain does not end at the signed head: it was rewritten. */
    HEAD_MISMATCH
  }

  /** One piece of damage at {@code sequence} (the first sequence it concerns). */
  public record Finding(Kind kind, long sequence, String detail) {
    public Finding {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(detail, "detail");
    }
  }

  public AuditReport {
    Objects.requireNonNull(set, "set");
    Objects.requireNonNull(stored, "stored");
    Objects.requireNonNull(signed, "signed");
    findings = List.copyOf(findings);
  }

  public boolean intact() {
    return findings.isEmpty();
  }

  /** Whether some finding is of {@code kind}. */
  public boolean has(Kind kind) {
    return findings.stream().anyMatch(f -> f.kind() == kind);
  }

  /** Throws {@code CHECKPOINT} listing the findings unless the set is intact. */
  public void requireIntact() {
    if (!intact()) {
      throw RatchetException.checkpoint(
          "the "
              + set.wireName()
              + " fails its audit: "
              + findings.stream()
                  .map(f -> f.kind() + " at #" + f.sequence() + " (" + f.detail() + ")")
                  .collect(Collectors.joining("; ")));
    }
  }
}
