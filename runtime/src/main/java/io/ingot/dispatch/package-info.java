/**
 * The hand-off between the threads that submit a model's requests and the instances that run them, with no thread in
 * between: the intake ring, the batching role that idle instances take in turn ({@link
 * io.ingot.dispatch.ModelScheduler}), each instance's {@link io.ingot.dispatch.Seat}, and the core's {@link
 * io.ingot.dispatch.Timekeeper} for what must be answered on time while every instance is busy. Thread-safe; the
 * protocols are specified in {@code ModelScheduler} and here and checked by the jcstress tests of the concurrency-tests
 * module.
 *
 * <p><b>Wake-ups.</b> A producer rings the watcher's bell, or, when there is none, <em>calls</em> one following
 * instance ({@link io.ingot.dispatch.Seat#call}: a flag its owner looks at before sleeping, then a ring); a bell costs
 * a system call only when its owner has armed it (is asleep or about to be). Both sides fence between publishing and
 * looking, so no wake-up is lost (the {@link io.ingot.agent.Bell} protocol; jcstress tests in the concurrency-tests
 * module). Whoever hands the role on — a hand-off with work left, a sweep, a sequence policy's yield to the instance
 * whose slots hold the work — calls rather than rings: the work may already sit in the policy, where the called
 * instance's last look before sleeping would not see it. An instance that yielded stays a follower, so an arrival for
 * its own sequences wakes it while the instance it yielded to runs a batch.
 *
 * <p><b>Producers' cost.</b> The producer side is the scheduler's {@code RequestIntake}. A submission claims one
 * ring slot (a batch's run of requests one claim for all its slots) — the only shared read-modify-write on its path,
 * apart from a compare-and-set on its priority level's counter when that level has a {@code max_queue_size} — reads
 * a few volatile fields, and signals only a thread that sleeps. A full ring does not block it: it drains the ring into
 * the policy itself when the role is free, and spins otherwise.
 */
package io.ingot.dispatch;
