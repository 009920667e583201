/**
 * jcstress tests of the hot path's hand-off protocols (see {@code io.ingot.dispatch.ModelScheduler},
 * {@code io.ingot.agent.Bell} and the shared-memory {@code io.ingot.ipc.Doorbell}): each races the two or three sides
 * of one protocol and forbids the outcome that would lose a request, a wake-up or an answer, or break a limit.
 * {@code mvn verify} runs them in jcstress's quick mode.
 */
package io.ingot.concurrency;
