package dev.ratchet.jdbc;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * Starts {@link KillChild} JVMs fast, because a kill campaign starts hundreds of them: a slim
 * classpath packed into one jar, C1 only, the SQLite native library extracted once instead of by
 * every child, and an application class-data archive recorded by one warm-up run (AppCDS needs
 * jars, hence the packing). Each speed-up is dropped quietly if the platform refuses it.
 */
final class ChildJvm {
  private final Path work;
  private final List<String> classpath = new ArrayList<>();
  private final List<String> flags = new ArrayList<>();

  ChildJvm(Path work) throws IOException, InterruptedException {
    this.work = work;
    Path jar = work.resolve("child.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      for (Class<?> c :
          List.of(KillChild.class, JdbcStore.class, dev.ratchet.error.RatchetException.class)) {
        Path source = codeSource(c);
        if (Files.isDirectory(source)) {
          pack(source, out, c == KillChild.class ? "dev/ratchet/jdbc/KillChild" : "");
        } else {
          classpath.add(source.toString());
        }
      }
    }
    classpath.add(0, jar.toString());
    classpath.add(codeSource(org.sqlite.JDBC.class).toString());
    flags.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData"));
    flags.add("-Xmx64m");
    extractNativeLibrary();
    recordArchive();
  }

  /** A child with {@code args}; its stderr is appended to {@code log}. */
  Process start(Path log, String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(flags);
    cmd.add("-cp");
    cmd.add(String.join(File.pathSeparator, classpath));
    cmd.add(KillChild.class.getName());
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd)
        .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .start();
  }

  private void extractNativeLibrary() throws IOException {
    String folder = org.sqlite.util.OSInfo.getNativeLibFolderPathForCurrentOS();
    String name = "libsqlitejdbc.so";
    try (InputStream in =
        org.sqlite.JDBC.class.getResourceAsStream("/org/sqlite/native/" + folder + "/" + name)) {
      if (in == null) {
        return; // not Linux: let each child extract its own
      }
      Path dir = Files.createDirectories(work.resolve("native"));
      Files.copy(in, dir.resolve(name));
      flags.add("-Dorg.sqlite.lib.path=" + dir);
      flags.add("-Dorg.sqlite.lib.name=" + name);
    }
  }

  private void recordArchive() throws IOException, InterruptedException {
    Path archive = work.resolve("child.jsa");
    Path scratch = Files.createDirectories(work.resolve("warm-up"));
    List<String> saved = new ArrayList<>(flags);
    flags.add("-XX:ArchiveClassesAtExit=" + archive);
    Process p = start(work.resolve("warm-up.log"), "split", scratch.toString(), "1", "20");
    p.getOutputStream().write("GO\n".getBytes(StandardCharsets.UTF_8));
    p.getOutputStream().close();
    p.getInputStream().transferTo(OutputStream.nullOutputStream());
    boolean ok = p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0 && Files.exists(archive);
    flags.clear();
    flags.addAll(saved);
    if (ok) {
      flags.add("-XX:SharedArchiveFile=" + archive);
    }
  }

  private static void pack(Path root, JarOutputStream out, String onlyPrefix) throws IOException {
    List<Path> files;
    try (Stream<Path> s = Files.walk(root)) {
      files = s.filter(Files::isRegularFile).sorted().toList();
    }
    for (Path f : files) {
      String name = root.relativize(f).toString().replace('\\', '/');
      if (!name.startsWith(onlyPrefix)) {
        continue;
      }
      out.putNextEntry(new JarEntry(name));
      Files.copy(f, out);
      out.closeEntry();
    }
  }

  private static Path codeSource(Class<?> c) {
    try {
      return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
