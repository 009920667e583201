package io.ingot.api;

/**
 * The core's timestamps of one traced request (Triton's TIMESTAMPS trace level), in {@link System#nanoTime()}
 * nanoseconds: request start, queue start, compute start, compute input end, compute output start, compute end and
 * request end. A frontend that samples a request for tracing attaches one with {@link InferenceRequest#trace}; the
 * core fills it at the points where it already reads the clock for statistics, and leaves a request without one
 * alone (a null check, nothing allocated). A value is 0 until the core has passed that point (a request refused at
 * submission has no queue start; one that failed in its engine has no compute times).
 *
 * <p>Threads: the submitting thread writes the request and queue start, the instance thread the compute times and
 * the request end, each before the response is delivered; read it after the response was delivered (the delivery
 * orders the writes before the reads). Reusable: {@link #clear()} before attaching it to another request.
 */
public final class RequestTrace
{
    private long requestStartNs;
    private long queueStartNs;
    private long computeStartNs;
    private long computeInputEndNs;
    private long computeOutputStartNs;
    private long computeEndNs;
    private long requestEndNs;

    /** Zeroes every timestamp. */
    public void clear()
    {
        requestStartNs = 0;
        queueStartNs = 0;
        computeStartNs = 0;
        computeInputEndNs = 0;
        computeOutputStartNs = 0;
        computeEndNs = 0;
        requestEndNs = 0;
    }

    /**
     * Core only: the request was handed to the core.
     *
     * @param nanos the time
     */
    public void requestStarted(final long nanos)
    {
        requestStartNs = nanos;
    }

    /**
     * Core only: the request was accepted into its model's queue.
     *
     * @param nanos the time
     */
    public void queued(final long nanos)
    {
        queueStartNs = nanos;
    }

    /**
     * Core only: the request's batch ran.
     *
     * @param start       compute start
     * @param inputEnd    inputs assembled
     * @param outputStart engine returned
     * @param end         outputs written
     */
    public void computed(final long start, final long inputEnd, final long outputStart, final long end)
    {
        computeStartNs = start;
        computeInputEndNs = inputEnd;
        computeOutputStartNs = outputStart;
        computeEndNs = end;
    }

    /**
     * Core only: the request's response is being delivered.
     *
     * @param nanos the time
     */
    public void requestEnded(final long nanos)
    {
        requestEndNs = nanos;
    }

    /** @return REQUEST_START, or 0 */
    public long requestStartNs()
    {
        return requestStartNs;
    }

    /** @return QUEUE_START, or 0 */
    public long queueStartNs()
    {
        return queueStartNs;
    }

    /** @return COMPUTE_START, or 0 */
    public long computeStartNs()
    {
        return computeStartNs;
    }

    /** @return COMPUTE_INPUT_END, or 0 */
    public long computeInputEndNs()
    {
        return computeInputEndNs;
    }

    /** @return COMPUTE_OUTPUT_START, or 0 */
    public long computeOutputStartNs()
    {
        return computeOutputStartNs;
    }

    /** @return COMPUTE_END, or 0 */
    public long computeEndNs()
    {
        return computeEndNs;
    }

    /** @return REQUEST_END, or 0 */
    public long requestEndNs()
    {
        return requestEndNs;
    }
}
