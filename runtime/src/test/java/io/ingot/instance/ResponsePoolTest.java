package io.ingot.instance;

import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ResponseAssembly;
import io.ingot.tensor.DataType;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * Where closed responses go: those closed on an {@link InstanceThread} stay with it, for the next ones it opens,
 * up to its bound; every other thread's go through the pool's shared queue, which any thread takes from.
 */
class ResponsePoolTest
{
    private static final InferenceRequest REQUEST = new InferenceRequest("m");

    private static InferenceResponse open(final ResponsePool pool)
    {
        final InferenceResponse response = pool.acquire();
        ResponseAssembly.begin(response, REQUEST, "m", 1);
        return response;
    }

    /** Runs {@code task} on a fresh instance thread and waits for it. */
    private static void onInstanceThread(final Runnable task) throws InterruptedException
    {
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final InstanceThread thread = new InstanceThread(() ->
        {
            try
            {
                task.run();
            }
            catch (final Throwable ex)
            {
                failure.set(ex);
            }
        });
        thread.start();
        thread.join();
        if (failure.get() != null)
        {
            throw new AssertionError("on the instance thread", failure.get());
        }
    }

    @Test
    void aResponseClosedOnAnInstanceThreadIsTheNextItOpensAndNoOtherThreadSeesIt() throws Exception
    {
        final ResponsePool pool = new ResponsePool();
        final AtomicReference<InferenceResponse> closed = new AtomicReference<>();
        onInstanceThread(() ->
        {
            final InferenceResponse first = open(pool);
            first.close();
            assertEquals(1, ((InstanceThread)Thread.currentThread()).keptResponses());
            assertSame(first, pool.acquire(), "kept by the thread that closed it");
            first.close();  // acquired, not begun: still closed, so this does nothing
            ResponseAssembly.begin(first, REQUEST, "m", 1);
            first.close();
            closed.set(first);
        });
        assertNotSame(closed.get(), pool.acquire(), "the instance thread kept it: the shared queue had none");
    }

    @Test
    void aResponseClosedElsewhereGoesToTheSharedQueueWhereAnInstanceThreadFindsIt() throws Exception
    {
        final ResponsePool pool = new ResponsePool();
        final InferenceResponse response = open(pool);
        response.close();
        final AtomicReference<InferenceResponse> taken = new AtomicReference<>();
        onInstanceThread(() -> taken.set(pool.acquire()));
        assertSame(response, taken.get(), "an instance thread that keeps none takes from the shared queue");
    }

    @Test
    void anInstanceThreadKeepsAtMostItsBoundAndTheRestGoToTheSharedQueue() throws Exception
    {
        final ResponsePool pool = new ResponsePool();
        final AtomicReference<InferenceResponse> overflow = new AtomicReference<>();
        onInstanceThread(() ->
        {
            final InferenceResponse[] responses = new InferenceResponse[InstanceThread.KEPT_RESPONSES + 1];
            for (int i = 0; i < responses.length; i++)
            {
                responses[i] = open(pool);
            }
            for (final InferenceResponse response : responses)
            {
                response.close();
            }
            assertEquals(InstanceThread.KEPT_RESPONSES, ((InstanceThread)Thread.currentThread()).keptResponses());
            overflow.set(responses[responses.length - 1]);
        });
        assertSame(overflow.get(), pool.acquire(), "the one past the bound went to the shared queue");
    }

    @Test
    void aListenerThatClosesItsResponseWhereItIsDeliveredGetsTheSameObjectForTheModelsNextRequest() throws Exception
    {
        try (InferenceCore core = TestModels.core(TestModels.config("name: 'echo' backend: 'identity' max_batch_size: 4"
            + " input [{ name: 'INPUT0' data_type: TYPE_INT32 dims: [1] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_INT32 dims: [1] }]"));
            Arena arena = Arena.ofShared())
        {
            final MemorySegment input = arena.allocate(ValueLayout.JAVA_INT);
            final InferenceResponse[] seen = new InferenceResponse[2];
            final Thread[] deliveredOn = new Thread[2];
            for (int i = 0; i < seen.length; i++)
            {
                input.set(ValueLayout.JAVA_INT, 0, 40 + i);
                final CompletableFuture<Integer> echoed = new CompletableFuture<>();
                final int index = i;
                core.submit(new InferenceRequest("echo").addInput("INPUT0", DataType.INT32, new long[] {1, 1}, input),
                    response ->
                    {
                        deliveredOn[index] = Thread.currentThread();
                        seen[index] = response;
                        final int value = response.output("OUTPUT0").data().get(ValueLayout.JAVA_INT, 0);
                        response.close();
                        echoed.complete(value);
                    });
                assertEquals(40 + i, echoed.get(30, TimeUnit.SECONDS), "each request its own output");
                assertInstanceOf(InstanceThread.class, deliveredOn[i], "delivered on the instance's thread");
            }
            assertSame(seen[0], seen[1], "closed on the instance thread, reused for its next request: none allocated");
        }
    }
}
