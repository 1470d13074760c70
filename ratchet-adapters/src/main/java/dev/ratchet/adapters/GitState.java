package dev.ratchet.adapters;

/**
 * The git part of a workspace observation: HEAD (null on an unborn branch) and whether the work
 * tree or index differs from it. Both are inside every state fingerprint, so a new base commit or a
 * foreign edit is drift (D13).
 */
public record GitState(String head, boolean dirty) {}
