/**
 * The in-process request ring: a multi-producer, single-consumer ring of preallocated slots (an LMAX Disruptor ring
 * buffer) through which callers hand requests to a model's batcher thread without locks or per-request allocation.
 */
package io.ingot.ring;
