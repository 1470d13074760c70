package dev.ratchet.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ratchet.error.ErrorCode;
import dev.ratchet.error.RatchetException;
import dev.ratchet.store.RecordChain;
import dev.ratchet.store.RecordSet;
import dev.ratchet.store.SetHead;
import dev.ratchet.store.StoredRecord;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** The checkpoints, records and refusal codes {@link CheckpointStoreContract} works with. */
final class ContractRecords {
  private ContractRecords() {}

  static String checkpoint(String runId, long generation) {
    return "{\"generation\":" + generation + ",\"run_id\":\"" + runId + "\"}";
  }

  /** The records {@code n} trace events starting after {@code head} would append. */
  static List<StoredRecord> traceAfter(SetHead head, int n) {
    List<StoredRecord> out = new ArrayList<>();
    SetHead h = head;
    for (int i = 0; i < n; i++) {
      long seq = h.count() + 1;
      StoredRecord r =
          RecordChain.append(h, RecordSet.TRACE, Long.toString(seq), "{\"sequence\":" + seq + "}");
      out.add(r);
      h = RecordChain.advance(h, r);
    }
    return out;
  }

  static SetHead headAfter(SetHead head, List<StoredRecord> records) {
    SetHead h = head;
    for (StoredRecord r : records) {
      h = RecordChain.advance(h, r);
    }
    return h;
  }

  static ErrorCode codeOf(ThrowingCallable call) {
    Throwable t = catchThrowable(call);
    assertThat(t).isInstanceOf(RatchetException.class);
    return ((RatchetException) t).code();
  }
}
