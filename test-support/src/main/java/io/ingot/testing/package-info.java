/**
 * What the tests of every module above {@code api} share, so that no module keeps a copy: a fake
 * {@link io.ingot.backend.Batch} for engines tested without a core ({@link io.ingot.testing.FakeBatch}), a recording
 * backend whose recorders belong to the test that made it ({@link io.ingot.testing.RecordingBackend}), builders of
 * configurations, contexts, cores and requests ({@link io.ingot.testing.TestModels}), the
 * {@link io.ingot.testing.GpuTest} tag and its printed skip reason, and child processes
 * ({@link io.ingot.testing.ChildProcess}). Modules use it in test scope; the one exception is the JMH benchmarks,
 * whose direct-engine baseline runs on a {@code FakeBatch}. Nothing on the server's class path depends on it.
 */
package io.ingot.testing;
