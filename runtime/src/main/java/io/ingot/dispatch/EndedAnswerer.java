package io.ingot.dispatch;

import io.ingot.scheduler.EndedRequests;

/**
 * Answers the requests a scheduler ended without executing them, each with its ending's status and Triton's message,
 * and records them in statistics. Called by whichever thread ended them, after it gave up the batching role.
 */
@FunctionalInterface
public interface EndedAnswerer
{
    /**
     * @param ended the requests, out of every queue; the implementation answers each exactly once
     */
    void answer(EndedRequests ended);
}
