/**
 * The scheduling SPI (SPEC D24, D33; ADR 0060, 0061, 0064): where workers find runs to move. A
 * {@link dev.ratchet.schedule.SchedulingStore} keeps one scheduling row per run as a hint (the
 * signed checkpoint decides what the run does next) and grants the run's lease with every claim.
 * Implemented by the JDBC store on SQLite and PostgreSQL and by core's in-memory store; one
 * contract test in the testkit holds them to the same behaviour.
 */
package dev.ratchet.schedule;
