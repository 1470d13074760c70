package dev.ratchet.ops;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CountDownLatch;

/** An input stream that opens a latch when it ends: the stdio server's client went away. */
public final class EndOfInput extends FilterInputStream {
  private final CountDownLatch ended = new CountDownLatch(1);

  public EndOfInput(InputStream in) {
    super(in);
  }

  @Override
  public int read() throws IOException {
    try {
      return seen(super.read());
    } catch (IOException e) {
      ended.countDown();
      throw e;
    }
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    try {
      return seen(super.read(b, off, len));
    } catch (IOException e) {
      ended.countDown();
      throw e;
    }
  }

  private int seen(int n) {
    if (n < 0) {
      ended.countDown();
    }
    return n;
  }

  /** Waits until the input has ended. */
  public void await() throws InterruptedException {
    ended.await();
  }
}
