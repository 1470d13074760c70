package dev.ratchet.internal;

import dev.ratchet.store.Lease;

/**
 * A granted lease with the monotonic time its grant request was sent (D22): its local validity is
 * counted from then, never from when the answer arrived.
 */
record HeldLease(Lease lease, long sentNanos) {}
