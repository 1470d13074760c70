package dev.ratchet.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A real child JVM: its lines arrive in order, SIGKILL ends it, a clean exit is seen as one. */
class ChildJvmTest {
  /** The child: prints its arguments, one a line, then waits to be killed unless told to exit. */
  public static final class Child {
    public static void main(String[] args) throws InterruptedException {
      for (String a : args) {
        System.out.println(a);
      }
      System.out.flush();
      if (!List.of(args).contains("exit")) {
        Thread.sleep(60_000);
      }
    }
  }

  private static ChildJvm start(String... args) throws Exception {
    return ChildJvm.start(
        new ProcessBuilder(
            ChildJvm.command(
                ChildJvm.FAST_START,
                System.getProperty("java.class.path"),
                Child.class.getName(),
                List.of(args))));
  }

  @Test
  void linesArriveInOrderAndSigkillEndsTheChild() throws Exception {
    ChildJvm child = start("READY", "CRASH here");
    assertThat(child.next(30_000)).isEqualTo("READY");
    assertThat(child.next(30_000)).isEqualTo("CRASH here");
    assertThat(child.ended()).isFalse();
    child.kill();
    assertThat(child.exitCode()).isEqualTo(128 + 9);
    assertThat(child.next(100)).isNull();
    assertThat(child.ended()).isTrue();
    assertThat(child.seen()).containsExactly("READY", "CRASH here");
  }

  @Test
  void aChildThatExitsIsDrainedAndItsCodeKept() throws Exception {
    ChildJvm child = start("one", "two", "exit");
    assertThat(child.awaitExit(30_000)).isTrue();
    assertThat(child.exitCode()).isZero();
    assertThat(child.seen()).containsExactly("one", "two", "exit");
    assertThat(child.next(100)).isNull();
  }

  @Test
  void theCommandRunsThisJavaWithTheOptionsClassPathMainAndArguments() {
    List<String> cmd = ChildJvm.command(List.of("-Xmx64m"), "a.jar", "x.Main", List.of("--y"));
    assertThat(cmd.get(0)).endsWith("/bin/java");
    assertThat(cmd.subList(1, cmd.size()))
        .containsExactly("-Xmx64m", "-cp", "a.jar", "x.Main", "--y");
  }
}
