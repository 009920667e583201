/**
 * Batch formation as a pure, single-threaded policy ({@link io.ingot.scheduler.BatchPolicy}): given a model
 * version's queued requests, the free instance and {@code now} from an injected {@link io.ingot.time.NanoClock},
 * it decides to dispatch a {@link io.ingot.scheduler.FormedBatch}, to wait until a time, or that nothing is queued,
 * and records the requests it ended ({@link io.ingot.scheduler.EndedRequests}) without answering them.
 * {@link io.ingot.scheduler.DynamicBatchPolicy} is Triton's dynamic batcher — preferred sizes reached by exact
 * cumulative sums, a queue delay measured from the oldest pending request, strict priority levels, per-level queue
 * policies with REJECT and DELAY timeouts, shape checks; {@link io.ingot.scheduler.DefaultSchedulingPolicy} is
 * Triton's default scheduler, one request per batch. {@link io.ingot.scheduler.AdaptiveBatchPolicy} (SLO-aware, from
 * execution times learnt per instance and the measured arrivals) and {@link io.ingot.scheduler.AimdBatchPolicy}
 * (Clipper's AIMD batch size) replace the dynamic batcher's fixed delay and preferred sizes when a model asks for them
 * ({@code ingot.batching}; docs/adaptive-batching.md); all three share the dynamic batcher's queues, priority levels
 * and queue policies. {@link io.ingot.scheduler.LevelAdmission} applies each level's {@code max_queue_size}
 * synchronously on the submitting thread.
 *
 * <p>Threads: a policy starts no thread, never blocks, reads no clock and calls no user code. A policy and its queues
 * belong to whichever thread holds the model's batching role ({@code io.ingot.dispatch.ModelScheduler}), and a
 * {@code PendingRequest} to whoever the request was last handed to; besides the immutable settings, only
 * {@code LevelAdmission} and the {@code NanoClock}s are thread-safe.
 */
package io.ingot.scheduler;
