package io.ingot.scheduler;

import io.ingot.api.IdleMode;
import io.ingot.api.InferenceRequest;
import io.ingot.config.proto.ModelConfig;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The moment an instance becomes free, the batcher forms its batch from every request accepted before that moment
 * (§2.3: in Triton, Enqueue and batch formation share one lock). Drives the exact interleaving that used to split a
 * batch: a request arrives, and the busy instance becomes free, after the batcher drained its intake ring but before
 * it asked for a payload slot.
 */
class BatcherSlotRaceTest
{
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(30);

    /** One instance, no prefetch (a queue limit disables it), so a batch forms only once the instance waits. */
    private static SchedulerSettings settings()
    {
        // The configuration is not normalized here, so the preferred size normalization would add is spelled out.
        final ModelConfig config = TestModels.config("name: 'race' backend: 'recording' max_batch_size: 8"
            + " input [{ name: 'INPUT0' data_type: TYPE_INT32 dims: [1] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_INT32 dims: [1] }]"
            + " dynamic_batching { preferred_batch_size: [8] default_queue_policy { max_queue_size: 100 } }");
        return SchedulerSettings.of(config);
    }

    private static PendingRequest pending(final String id)
    {
        final PendingRequest pending = new PendingRequest();
        pending.request = new InferenceRequest("race").id(id);
        pending.batchSize = 1;
        pending.acceptedNs = System.nanoTime();
        return pending;
    }

    @Test
    void aRequestAcceptedBeforeTheInstanceFreesUpJoinsTheBatchEvenIfItMissedTheBatchersDrain() throws Exception
    {
        final SchedulerSettings settings = settings();
        assertFalse(settings.prefetch(), "precondition: a queue limit disables prefetch");
        final AtomicReference<Batcher> batcherRef = new AtomicReference<>();
        final PayloadQueue payloads = new PayloadQueue(1, false, settings.maxBatchSize(),
            () -> batcherRef.get().waker().run());
        final List<String> ended = new CopyOnWriteArrayList<>();
        final CompletableFuture<List<String>> firstBatch = new CompletableFuture<>();
        final Thread instance = Thread.ofPlatform().name("race-instance").daemon(true).unstarted(() ->
        {
            try
            {
                final Payload payload = payloads.take();
                final List<String> ids = new ArrayList<>();
                for (int i = 0; i < payload.count(); i++)
                {
                    ids.add(payload.get(i).request.id());
                }
                firstBatch.complete(ids);
            }
            catch (final Throwable ex)
            {
                firstBatch.completeExceptionally(ex);
            }
        });
        final AtomicBoolean probed = new AtomicBoolean();
        final AtomicReference<Throwable> probeFailure = new AtomicReference<>();
        // Runs on the batcher thread, after it drained "a" and before it asks for a slot: "b" is accepted now, and
        // then the instance (busy until here) starts waiting.
        final Runnable beforeSlotCheck = () ->
        {
            if (!probed.compareAndSet(false, true))
            {
                return;
            }
            try
            {
                batcherRef.get().enqueue(pending("b"));
                instance.start();
                final long deadline = System.nanoTime() + WAIT_NS;
                while (!payloads.slotAvailable())
                {
                    if (System.nanoTime() > deadline)
                    {
                        throw new AssertionError("the instance did not start waiting within 30 s");
                    }
                    Thread.onSpinWait();
                }
            }
            catch (final Throwable ex)
            {
                probeFailure.set(ex);
            }
        };
        final RequestCompleter completer = (request, code, message, reason) ->
            ended.add(request.request.id() + ": " + message);
        final Batcher batcher = new Batcher("race", settings, 16, payloads, completer, IdleMode.BLOCKING, true,
            beforeSlotCheck);
        batcherRef.set(batcher);
        final Thread batcherThread = Thread.ofPlatform().name("race-batcher").daemon(true).start(batcher);
        try
        {
            assertFalse(payloads.slotAvailable(), "no instance waits yet");
            batcher.enqueue(pending("a"));
            final List<String> batch = firstBatch.get(30, TimeUnit.SECONDS);
            assertNull(probeFailure.get(), () -> "probe failed: " + probeFailure.get());
            assertTrue(probed.get());
            assertEquals(List.of("a", "b"), batch, "both requests were accepted before the instance became free");
        }
        finally
        {
            batcher.stop();
            batcherThread.join(TimeUnit.SECONDS.toMillis(30));
            instance.join(TimeUnit.SECONDS.toMillis(30));
        }
        assertEquals(List.of(), ended, "no request was left behind");
    }
}
