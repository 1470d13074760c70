package dev.ratchet.jdbc;

/**
 * What the store's writer has done since it was opened: how many transactions carried how many
 * commit requests. With group commit, {@code requests / transactions} is the mean batch size.
 *
 * @param prunesDeferred content prunes of a split store that failed after their commit and are
 *     retried by the run's next commit
 */
public record CommitStats(
    long transactions, long requests, int largestBatch, long prunesDeferred) {}
