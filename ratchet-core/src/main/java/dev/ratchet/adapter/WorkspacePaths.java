package dev.ratchet.adapter;

import dev.ratchet.error.RatchetException;
import dev.ratchet.json.Text;

/**
 * The path rules of workspace adapters (reference-behaviour §1.3): relative, canonical POSIX form,
 * no {@code .} or {@code ..} segments, no backslash or NUL, at most 200 characters (the effective
 * limit, quirk 17).
 */
public final class WorkspacePaths {
  public static final int MAX_PATH = Text.MAX_TEXT;

  /**
   * The same rules as a regular expression (JSON Schema / ECMA syntax): relative, no backslash or
   * NUL, no empty, {@code .} or {@code ..} segment.
   */
  public static final String PATTERN =
      "^(?:(?!\\.\\.?(?:/|$))[^/\\\\\\u0000]+/)*(?!\\.\\.?$)[^/\\\\\\u0000]+$";

  private WorkspacePaths() {}

  public static String require(String field, String path) {
    Text.require(field, path, MAX_PATH);
    if (path.indexOf('\\') >= 0 || path.indexOf('\0') >= 0) {
      throw RatchetException.contract(field + ": must not contain a backslash or NUL");
    }
    if (path.startsWith("/")) {
      throw RatchetException.contract(field + ": must be relative");
    }
    for (String seg : path.split("/", -1)) {
      if (seg.isEmpty() || seg.equals(".") || seg.equals("..")) {
        throw RatchetException.contract(
            field + ": must be canonical (no empty, '.' or '..' segments)");
      }
    }
    return path;
  }
}
