package dev.ratchet.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The step shape the baselines copy (figures 1 and 4), read from counted commits. */
class CountsTest {
  private static BenchStore.Counts counted(long commits, long records, long recordBytes) {
    return new BenchStore.Counts(commits, 0, records, recordBytes, 0, 0, 0, 0, 0);
  }

  @Test
  void recordsPerCommitIsTheRoundedMeanAndAtLeastOne() {
    assertThat(counted(10, 40, 0).recordsPerCommit()).isEqualTo(4);
    assertThat(counted(10, 35, 0).recordsPerCommit()).isEqualTo(4); // 3.5 rounds up
    assertThat(counted(10, 2, 0).recordsPerCommit()).isEqualTo(1);
    assertThat(counted(0, 0, 0).recordsPerCommit()).isEqualTo(1);
  }

  @Test
  void meanRecordBytesIsPerRecordAndZeroWithoutRecords() {
    assertThat(counted(10, 40, 19_640).meanRecordBytes()).isEqualTo(491);
    assertThat(counted(10, 0, 0).meanRecordBytes()).isZero();
  }
}
