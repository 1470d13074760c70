package dev.ratchet.worker;

import dev.ratchet.schedule.SchedulingStore;
import dev.ratchet.store.CheckpointStore;
import dev.ratchet.testkit.InMemoryStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.TreeMap;

/**
 * Core's in-memory store behind a proxy that counts every call by method name: each call of the
 * store SPI is one round trip to a database store (on PostgreSQL since schema version 15 a claim, a
 * commit and a finish with its release are one call each), so the counts are the round trips a
 * worker makes.
 */
final class CountedStore {
  private final Object proxy;
  private final Map<String, Integer> calls = new TreeMap<>();

  CountedStore(InMemoryStore store) {
    proxy =
        Proxy.newProxyInstance(
            CountedStore.class.getClassLoader(),
            new Class<?>[] {CheckpointStore.class, SchedulingStore.class},
            (p, method, args) -> {
              synchronized (calls) {
                calls.merge(method.getName(), 1, Integer::sum);
              }
              try {
                return method.invoke(store, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  CheckpointStore checkpoints() {
    return (CheckpointStore) proxy;
  }

  SchedulingStore scheduling() {
    return (SchedulingStore) proxy;
  }

  /** Calls so far, by method name; then starts counting again from zero. */
  Map<String, Integer> take() {
    synchronized (calls) {
      Map<String, Integer> out = new TreeMap<>(calls);
      calls.clear();
      return out;
    }
  }
}
