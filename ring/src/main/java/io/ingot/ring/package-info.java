/**
 * The in-process request ring: a multi-producer, single-consumer ring of preallocated slots (an LMAX Disruptor ring
 * buffer) through which callers hand requests to whichever thread drains it — in the runtime, the holder of a model
 * version's batching role — without locks or per-request allocation. Producers claim and publish; a full ring is a
 * status, not a wait; waking the consumer is the caller's business.
 */
package io.ingot.ring;
