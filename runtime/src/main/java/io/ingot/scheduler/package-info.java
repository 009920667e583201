/**
 * Scheduling: one batcher thread per model version turns the requests of its ring into batches ({@link
 * io.ingot.scheduler.Payload}s) exactly as Triton's dynamic batcher does — preferred sizes reached by exact cumulative
 * sums, a queue delay measured from the oldest pending request, strict priority levels, per-level queue policies,
 * preserved ordering, shape checks — or one request per batch for Triton's default scheduler. Instances take the
 * batches first-in first-out from a {@link io.ingot.scheduler.PayloadQueue}.
 */
package io.ingot.scheduler;
