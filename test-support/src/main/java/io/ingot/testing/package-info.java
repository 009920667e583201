/**
 * What the tests of every module above {@code api} share, so that no module keeps a copy: a fake
 * {@link io.ingot.backend.Batch} for engines tested without a core ({@link io.ingot.testing.FakeBatch}), a recording
 * backend whose recorders belong to the test that made it ({@link io.ingot.testing.RecordingBackend}), builders of
 * configurations, contexts, cores and requests ({@link io.ingot.testing.TestModels}), the
 * {@link io.ingot.testing.GpuTest} tag and its printed skip reason, and child processes
 * ({@link io.ingot.testing.ChildProcess}). Test scope only.
 */
package io.ingot.testing;
