/**
 * The hand-off between the threads that submit a model's requests and the instances that run them, with no thread in
 * between: the intake ring, the batching role that idle instances take in turn
 * ({@link io.ingot.dispatch.ModelScheduler}), each instance's {@link io.ingot.dispatch.Seat}, and the core's
 * {@link io.ingot.dispatch.Timekeeper} for what must be answered on time while every instance is busy. Thread-safe;
 * the protocols are specified in {@code ModelScheduler} and checked by the jcstress tests of the concurrency-tests
 * module.
 */
package io.ingot.dispatch;
