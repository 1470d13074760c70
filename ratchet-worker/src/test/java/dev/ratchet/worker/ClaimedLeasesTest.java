package dev.ratchet.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratchet.seam.Seams;
import dev.ratchet.store.Fence;
import dev.ratchet.store.Lease;
import dev.ratchet.store.LeaseStore;
import dev.ratchet.store.LeaseToken;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The claimed lease reaches the resume that follows the claim: once, only for its owner; every
 * other grant goes to the real store.
 */
class ClaimedLeasesTest {
  private final List<String> asked = new ArrayList<>();

  private final LeaseStore store =
      new LeaseStore() {
        @Override
        public Optional<Lease> acquire(String runId, String owner, Duration ttl) {
          asked.add("acquire " + runId + " " + owner);
          return Optional.empty();
        }

        @Override
        public Optional<Lease> takeOver(String runId, String owner, Duration ttl) {
          asked.add("takeOver " + runId + " " + owner);
          return Optional.empty();
        }

        @Override
        public Lease renew(Lease lease, Duration ttl) {
          return lease;
        }

        @Override
        public void release(Lease lease) {
          asked.add("release " + lease.runId());
        }

        @Override
        public Optional<Lease> current(String runId) {
          return Optional.empty();
        }

        @Override
        public void check(Fence fence) {
          // every fence passes in this fake
        }
      };

  @Test
  void theHandedLeaseIsTakenOnceAndOnlyByItsOwner() {
    ClaimedLeases leases = new ClaimedLeases(store);
    Lease claimed =
        new Lease(
            "r1",
            "w1",
            7,
            Instant.EPOCH.plusSeconds(30),
            LeaseToken.generate(Seams.secureEntropy()));
    leases.hand(claimed);

    assertThat(leases.acquire("r1", "someone-else", Duration.ofSeconds(30))).isEmpty();
    assertThat(asked).containsExactly("acquire r1 someone-else");
    assertThat(leases.acquire("r1", "w1", Duration.ofSeconds(30))).containsSame(claimed);
    assertThat(leases.takeOver("r1", "w1", Duration.ofSeconds(30))).isEmpty();
    assertThat(asked).containsExactly("acquire r1 someone-else", "takeOver r1 w1");

    leases.hand(claimed);
    leases.forget("r1");
    assertThat(leases.acquire("r1", "w1", Duration.ofSeconds(30))).isEmpty();
  }
}
