/**
 * The in-process request ring: a multi-producer, single-consumer ring of preallocated slots (a fetch-and-add claim,
 * publication by the slot itself) through which callers hand requests to whichever thread drains it — in the
 * runtime, the holder of a model version's batching role — without locks or per-request allocation. Producers claim
 * and publish; a full ring is a status, or a slot to wait for while draining, never a lock; waking the consumer is
 * the caller's business.
 */
package io.ingot.ring;
