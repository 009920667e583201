/**
 * Backends built into the runtime: {@code identity} (Triton's identity test model), {@code add_sub} (Triton's
 * {@code simple} model) and {@code cost} (an execution of known duration, for scheduling tests and benchmarks).
 */
package io.ingot.backend.builtin;
