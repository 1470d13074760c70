package dev.ratchet.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.seam.CrashPoint;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The seeded plan of a crash trial: reproducible, and mixed as documented. */
class CrashPlanTest {
  @Test
  void aSeedAlwaysGivesTheSamePlan() {
    for (long seed = 0; seed < 200; seed++) {
      assertThat(CrashPlan.of(seed, false)).isEqualTo(CrashPlan.of(seed, false));
    }
  }

  @Test
  void consecutiveSeedsMixKindsLayoutsAndFaultsAsDocumented() {
    Map<CrashPlan.Fault, Integer> faults = new EnumMap<>(CrashPlan.Fault.class);
    int ledger = 0;
    int split = 0;
    int approvals = 0;
    int approvalWindow = 0;
    int n = 10_000;
    for (long seed = 0; seed < n; seed++) {
      CrashPlan p = CrashPlan.of(seed, false);
      faults.merge(p.fault(), 1, Integer::sum);
      ledger += p.kind() == ChaosTasks.Kind.LEDGER ? 1 : 0;
      split += p.split() ? 1 : 0;
      approvals += p.approvals() ? 1 : 0;
      if (p.fault() == CrashPlan.Fault.SEAM) {
        if (p.point() == CrashPoint.AFTER_APPROVAL_COMMIT) {
          assertThat(p.approvals()).as("only approval-gated tasks have the window").isTrue();
          approvalWindow++;
        } else {
          assertThat(CrashPlan.windows(p.split())).contains(p.point());
        }
        assertThat(p.visit()).isBetween(1, 3);
      }
      if (p.fault() == CrashPlan.Fault.RACE || p.fault() == CrashPlan.Fault.EXPIRY) {
        assertThat(p.ttlMs()).isBetween(100L, 499L);
        assertThat(p.stallPermille()).isBetween(50, 249);
      } else {
        assertThat(p.ttlMs()).isEqualTo(CrashPlan.NORMAL_TTL_MS);
        assertThat(p.stallPermille()).isZero();
      }
    }
    assertThat(ledger).isBetween(4_800, 5_200);
    assertThat(approvals).isBetween(2_300, 2_700);
    assertThat(approvalWindow).isBetween(160, 290); // 25 % x 18 % x one half
    assertThat(split).isBetween(3_100, 3_560);
    assertThat(faults.get(CrashPlan.Fault.SEAM)).isBetween(1_650, 1_950);
    assertThat(faults.get(CrashPlan.Fault.SIGKILL)).isBetween(1_080, 1_320);
    assertThat(faults.get(CrashPlan.Fault.RACE)).isBetween(1_350, 1_650);
    assertThat(faults.get(CrashPlan.Fault.EXPIRY)).isBetween(1_350, 1_650);
  }

  @Test
  void tenThousandSeedsPlanAKillInEveryWindowTheCampaignDrivesAndInNoOther() {
    java.util.Set<CrashPoint> planned = java.util.EnumSet.noneOf(CrashPoint.class);
    for (long seed = 0; seed < 10_000; seed++) {
      CrashPlan p = CrashPlan.of(seed, false);
      if (p.fault() == CrashPlan.Fault.SEAM) {
        planned.add(p.point());
      }
    }
    assertThat(planned).isEqualTo(CrashPlan.drivenWindows());
    assertThat(CrashPlan.drivenWindows())
        .hasSize(CrashPoint.values().length - 7)
        .doesNotContain(
            CrashPoint.AFTER_EFFECT_STARTED_COMMIT,
            CrashPoint.UNRECEIPTED_RESULT_HELD,
            // The batched commit's windows: BatchedCommitKillTest kills worker JVMs in them.
            CrashPoint.STORE_BEFORE_BATCHED_COMMIT,
            CrashPoint.STORE_AFTER_BATCHED_COMMIT,
            // A fork's windows (D37): the crash matrix's fork rows and ForkProcessTest's kill.
            CrashPoint.FORK_BEFORE_COMMIT,
            CrashPoint.FORK_AFTER_COMMIT,
            CrashPoint.INHERITED_REPLAY_BEFORE_COMMIT);
  }

  @Test
  void theCanaryAimsEveryTrialAtTheAdaptersWindowAfterItsExternalCommit() {
    for (long seed = 0; seed < 50; seed++) {
      CrashPlan p = CrashPlan.of(seed, true);
      assertThat(p.fault()).isEqualTo(CrashPlan.Fault.SEAM);
      assertThat(p.point()).isEqualTo(CrashPoint.ADAPTER_AFTER_EXTERNAL_COMMIT);
      assertThat(p.visit()).isEqualTo(1);
    }
  }
}
