package io.ingot.api;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Requests submitted together ({@link InferenceCore#submit(InferenceBatch, BatchListener)}), for callers with many
 * requests at once — a stream processor, a batch job: the core validates them one by one but hands each run of
 * requests for one model version to its scheduler with one ring claim and one fence, and the batch is done (its
 * listener called once, its waiter woken once) when the last request has its response. Reusable: fill it, submit it,
 * take the responses, then {@link #closeResponses()} (and submit the same requests again, refilled) or
 * {@link #clear()} it (and fill it anew); it allocates nothing per request in steady state.
 *
 * <p>Every request gets exactly one response in {@link #response(int)}: its outputs, or an error — also a request
 * the core refused (an invalid one gets its error there, and the others their results; nothing is thrown for it).
 * An empty batch is refused with {@link InferenceException} INVALID_ARG, and nothing is in flight.
 *
 * <pre>{@code
 * InferenceBatch batch = new InferenceBatch(64);
 * for (InferenceRequest request : requests)
 * {
 *     batch.add(request);
 * }
 * core.submit(batch, BatchListener.NONE);
 * batch.await();
 * for (int i = 0; i < batch.size(); i++)
 * {
 *     InferenceResponse response = batch.response(i);  // outputs, or an error
 * }
 * batch.closeResponses();  // ready to go again with the same requests; clear() empties it
 * }</pre>
 *
 * <p>Threads: one owner fills, submits, awaits and clears it; while it is in flight (from the submission until
 * {@link #isDone()}) its requests must not change, as for {@link InferenceCore#submit(InferenceRequest,
 * ResponseListener)}. The core completes it from its threads: each response is stored into its slot with a plain
 * store and counted with an atomic decrement — one per run of responses the same thread delivers together (an
 * executed batch's), one per response otherwise; the thread that counts the last one calls the listener, then
 * publishes the batch as done (a volatile store) and wakes the owner if it parked, so the listener and an awaiting
 * owner see every response, and the owner's {@link #await()} returns after the listener did.
 */
public final class InferenceBatch
{
    /** How long {@link #await()} stays awake before it parks. */
    public static final long DEFAULT_SPIN_NANOS = ResponseFuture.DEFAULT_SPIN_NANOS;

    private static final int IDLE = 0;
    private static final int IN_FLIGHT = 1;
    /** Every response is in; the listener runs. */
    private static final int ANSWERED = 2;
    private static final int DONE = 3;
    private static final long LOG_INTERVAL_NANOS = 10_000_000_000L;
    private static final System.Logger LOG = System.getLogger(InferenceBatch.class.getName());
    private static final AtomicLong LAST_LOG_NANOS = new AtomicLong(System.nanoTime() - LOG_INTERVAL_NANOS);
    private static final AtomicLong UNLOGGED_FAILURES = new AtomicLong();
    private static final VarHandle REMAINING;

    static
    {
        try
        {
            REMAINING = MethodHandles.lookup().findVarHandle(InferenceBatch.class, "remaining", int.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final InferenceRequest[] requests;
    private final InferenceResponse[] responses;
    private final Completion[] completions;
    private final ParkingWaiter parking = new ParkingWaiter();
    private int size;
    private BatchListener listener;
    private volatile int remaining;
    private volatile int state = IDLE;
    private volatile long listenerFailures;

    /**
     * @param capacity the most requests it holds, at least 1
     */
    public InferenceBatch(final int capacity)
    {
        if (capacity < 1)
        {
            throw new IllegalArgumentException("a batch holds at least one request, capacity was " + capacity);
        }
        requests = new InferenceRequest[capacity];
        responses = new InferenceResponse[capacity];
        completions = new Completion[capacity];
        for (int i = 0; i < capacity; i++)
        {
            completions[i] = new Completion(this, i);
        }
    }

    /**
     * Adds a request (the owner, while the batch is not in flight).
     *
     * @param request the request
     * @return this batch
     * @throws IllegalStateException when the batch is full, in flight, or done and not yet cleared
     */
    public InferenceBatch add(final InferenceRequest request)
    {
        if (request == null)
        {
            throw new IllegalArgumentException("a batch holds requests, not null");
        }
        if (state != IDLE)
        {
            throw new IllegalStateException("the batch is " + (state == DONE ? "done: clear() it" : "in flight")
                + " before adding requests");
        }
        if (size == requests.length)
        {
            throw new IllegalStateException("the batch is full: it holds " + requests.length + " requests");
        }
        requests[size++] = request;
        return this;
    }

    /** @return the requests in the batch */
    public int size()
    {
        return size;
    }

    /** @return the most requests the batch holds */
    public int capacity()
    {
        return requests.length;
    }

    /**
     * @param index 0 .. size - 1
     * @return the request added at that position
     */
    public InferenceRequest request(final int index)
    {
        return requests[checkIndex(index)];
    }

    /**
     * @param index 0 .. size - 1
     * @return the response to request {@code index} (outputs or an error) once the batch {@link #isDone()}, or in its
     *     listener; the owner closes it (or calls {@link #closeResponses()})
     * @throws IllegalStateException when the batch is not done
     */
    public InferenceResponse response(final int index)
    {
        if (state < ANSWERED)
        {
            throw new IllegalStateException("the batch is not done: its responses are still being written");
        }
        return responses[checkIndex(index)];
    }

    /** @return whether every request of the submitted batch has its response and its listener has returned */
    public boolean isDone()
    {
        return state == DONE;
    }

    /** @return how many times a listener of this batch threw (logged, rate-limited, otherwise ignored) */
    public long listenerFailures()
    {
        return listenerFailures;
    }

    /**
     * Waits until the batch is done: spins {@value #DEFAULT_SPIN_NANOS} ns (yielding between looks), then parks;
     * the thread that completes the batch unparks it only if it parked.
     *
     * @return this batch
     */
    public InferenceBatch await()
    {
        if (!await(Long.MAX_VALUE))
        {
            throw new IllegalStateException("the batch was not submitted");
        }
        return this;
    }

    /**
     * Waits at most {@code timeout} until the batch is done.
     *
     * @param timeout the longest wait
     * @return whether it is done
     */
    public boolean await(final Duration timeout)
    {
        return await(timeout.toNanos());
    }

    private boolean await(final long timeoutNanos)
    {
        if (state == IDLE)
        {
            return false;
        }
        final long start = System.nanoTime();
        final long spin = Math.min(DEFAULT_SPIN_NANOS, timeoutNanos);
        while (state != DONE)
        {
            final long waited = System.nanoTime() - start;
            if (waited >= spin)
            {
                return parkUntilDone(start, timeoutNanos);
            }
            if (waited < ResponseFuture.SPIN_BEFORE_YIELD_NANOS)
            {
                Thread.onSpinWait();
            }
            else
            {
                Thread.yield();
            }
        }
        return true;
    }

    private boolean parkUntilDone(final long start, final long timeoutNanos)
    {
        parking.announce();
        try
        {
            while (state != DONE)
            {
                final long left = timeoutNanos - (System.nanoTime() - start);
                if (left <= 0)
                {
                    return false;
                }
                LockSupport.parkNanos(this, left);
            }
            return true;
        }
        finally
        {
            parking.withdraw();
        }
    }

    /**
     * Closes every response of a done batch and makes it ready to be submitted again with the same requests (the
     * owner; {@link #clear()} empties it instead); in the batch's listener it closes the responses only, and the owner
     * resubmits or clears the batch once it is done.
     */
    public void closeResponses()
    {
        final int now = state;
        if (now == IN_FLIGHT)
        {
            throw new IllegalStateException("the batch is in flight: its responses are still being written");
        }
        for (int i = 0; i < size; i++)
        {
            final InferenceResponse response = responses[i];
            responses[i] = null;
            if (response != null)
            {
                response.close();
            }
        }
        if (now == DONE)
        {
            listener = null;
            state = IDLE;
        }
    }

    /**
     * Empties the done batch for reuse (the owner, not its listener); the responses are not closed: the owner closes
     * those it took.
     */
    public void clear()
    {
        if (state == IN_FLIGHT || state == ANSWERED)
        {
            throw new IllegalStateException("the batch is in flight: clear it once it is done");
        }
        Arrays.fill(requests, 0, size, null);
        Arrays.fill(responses, 0, size, null);
        size = 0;
        listener = null;
        state = IDLE;
    }

    // ---------------------------------------------------------------- for core implementations

    /**
     * How a core hands a batch's requests over: it accepts or {@link #refuse refuses} every request in
     * {@code [from, to)}, each exactly once, and never throws. Accepted requests answer through
     * {@link #listener(int)}.
     */
    @FunctionalInterface
    public interface Submitter
    {
        /**
         * @param batch the batch
         * @param from  first request
         * @param to    one past the last request
         */
        void submit(InferenceBatch batch, int from, int to);
    }

    /**
     * Submits the batch through a core's {@link Submitter} (core implementations; applications call
     * {@link InferenceCore#submit(InferenceBatch, BatchListener)}). The batch holds itself open while the submitter
     * runs, so it completes — and its listener runs — only after every request was handed over.
     *
     * @param batchListener receives the batch when it is done
     * @param submitter     hands the requests over
     * @throws InferenceException       INVALID_ARG for an empty batch (nothing is in flight)
     * @throws IllegalStateException    when the batch is in flight, or done and not cleared
     * @throws IllegalArgumentException when the listener is {@code null}
     */
    public void submitThrough(final BatchListener batchListener, final Submitter submitter)
    {
        if (batchListener == null)
        {
            throw new IllegalArgumentException("a batch listener is required (BatchListener.NONE to await instead)");
        }
        if (state != IDLE)
        {
            throw new IllegalStateException("the batch is " + (state == DONE ? "done: clear() it" : "in flight")
                + " and cannot be submitted again yet");
        }
        if (size == 0)
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, "the batch holds no request: add at least one "
                + "before submitting it");
        }
        listener = batchListener;
        REMAINING.setRelease(this, size + 1);
        state = IN_FLIGHT;
        try
        {
            submitter.submit(this, 0, size);
        }
        finally
        {
            completed(1);
        }
    }

    /**
     * @param index the request's position
     * @return the listener through which the core answers request {@code index}
     */
    public ResponseListener listener(final int index)
    {
        return completions[checkIndex(index)];
    }

    /**
     * Answers a request the core did not accept with an error response (the refusal the single-request
     * {@code submit} throws), so that it, too, has its one response.
     *
     * @param index   the request's position
     * @param refusal why: an {@link InferenceException} keeps its code, anything else (a request already in flight
     *                elsewhere) is INVALID_ARG
     */
    public void refuse(final int index, final RuntimeException refusal)
    {
        final InferenceRequest request = requests[checkIndex(index)];
        final InferenceException error = refusal instanceof InferenceException known ? known
            : new InferenceException(ErrorCode.INVALID_ARG, String.valueOf(refusal.getMessage()));
        final InferenceResponse response = ResponseAssembly.newResponse(null);
        ResponseAssembly.begin(response, request, String.valueOf(request.modelName()), request.modelVersion());
        ResponseAssembly.fail(response, error);
        completions[index].onResponse(response);
    }

    /**
     * Counts responses a core stored with {@link Completion#store} together: one atomic decrement for all of them
     * (core implementations, on the thread that stored them, after the last store). The thread that counts the last
     * response of the batch calls its listener, as {@link ResponseListener#onResponse} would.
     *
     * @param count how many responses this thread stored and has not counted yet, at least 1
     */
    public void countStored(final int count)
    {
        if (count < 1)
        {
            throw new IllegalArgumentException("count at least one stored response, not " + count);
        }
        completed(count);
    }

    private void answered(final int index, final InferenceResponse response)
    {
        responses[index] = response;
        completed(1);
    }

    private void completed(final int count)
    {
        // The decrement is a full fence: the thread that counts the last one sees every response stored before.
        if ((int)REMAINING.getAndAdd(this, -count) != count)
        {
            return;
        }
        state = ANSWERED;
        try
        {
            listener.onBatchDone(this);
        }
        catch (final Throwable ex)
        {
            listenerFailures++;
            reportListenerFailure(ex);
        }
        state = DONE;
        parking.wake();
    }

    private static void reportListenerFailure(final Throwable ex)
    {
        final long now = System.nanoTime();
        final long last = LAST_LOG_NANOS.get();
        if (now - last >= LOG_INTERVAL_NANOS && LAST_LOG_NANOS.compareAndSet(last, now))
        {
            final long suppressed = UNLOGGED_FAILURES.getAndSet(0);
            LOG.log(System.Logger.Level.WARNING, "a batch listener threw (its batch stays done, its responses in it)"
                + (suppressed > 0 ? "; " + suppressed + " more failures since the last report" : ""), ex);
        }
        else
        {
            UNLOGGED_FAILURES.incrementAndGet();
        }
    }

    private int checkIndex(final int index)
    {
        if (index < 0 || index >= size)
        {
            throw new IndexOutOfBoundsException("request " + index + " of a batch of " + size);
        }
        return index;
    }

    /**
     * One request's listener ({@link #listener(int)}): {@link #onResponse} stores its response and counts it. A core
     * that delivers many responses on one thread may instead {@link #store} each and count those of one batch
     * together with {@link InferenceBatch#countStored} — one atomic decrement for the run instead of one per
     * response. Until they are counted the batch is not done, so a core that stores must count, also when it fails
     * in between.
     */
    public static final class Completion implements ResponseListener
    {
        private final InferenceBatch batch;
        private final int index;

        private Completion(final InferenceBatch batch, final int index)
        {
            this.batch = batch;
            this.index = index;
        }

        /** @return the batch whose request this listener answers */
        public InferenceBatch batch()
        {
            return batch;
        }

        @Override
        public void onResponse(final InferenceResponse response)
        {
            batch.answered(index, response);
        }

        /**
         * Stores the request's response without counting it (core implementations; a plain store, published by the
         * later {@link InferenceBatch#countStored}).
         *
         * @param response the request's one response
         */
        public void store(final InferenceResponse response)
        {
            batch.responses[index] = response;
        }
    }
}
