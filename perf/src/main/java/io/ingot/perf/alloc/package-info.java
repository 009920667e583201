/**
 * Attribution of allocations on the in-process path to Ingot's threads: {@link
 * io.ingot.perf.alloc.AllocationProbe} complements JMH's {@code -prof gc} (which sums every thread) by saying
 * which thread allocates how many bytes per request.
 */
package io.ingot.perf.alloc;
