package io.ingot.scheduler;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Payload slots (§2.11): when the batcher may form a batch, with and without prefetch. */
class PayloadQueueTest
{
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(30);

    /** An instance thread that takes one payload. */
    private static CompletableFuture<Payload> takeOne(final PayloadQueue payloads, final String name)
    {
        final CompletableFuture<Payload> taken = new CompletableFuture<>();
        Thread.ofPlatform().name(name).daemon(true).start(() ->
        {
            try
            {
                taken.complete(payloads.take());
            }
            catch (final Throwable ex)
            {
                taken.completeExceptionally(ex);
            }
        });
        return taken;
    }

    private static void awaitSlot(final PayloadQueue payloads)
    {
        final long deadline = System.nanoTime() + WAIT_NS;
        while (!payloads.slotAvailable())
        {
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("no instance started waiting within 30 s");
            }
            Thread.onSpinWait();
        }
    }

    @Test
    void withoutPrefetchAQueuedPayloadClosesTheSlotOfTheInstanceItIsFor() throws Exception
    {
        final CountDownLatch woken = new CountDownLatch(1);
        final PayloadQueue payloads = new PayloadQueue(1, false, 4, woken::countDown);
        assertFalse(payloads.slotAvailable(), "no instance waits");

        final CompletableFuture<Payload> taken = takeOne(payloads, "instance");
        assertTrue(woken.await(30, TimeUnit.SECONDS), "an instance that starts waiting wakes the batcher");
        assertTrue(payloads.slotAvailable(), "the waiting instance offers a slot");

        final Payload payload = payloads.acquire();
        payloads.enqueue(payload);
        // Closed from the enqueue on, whether or not the instance has taken the payload yet: the batcher must not
        // form a second batch for an instance that is about to execute the first.
        assertFalse(payloads.slotAvailable(), "the waiting instance already has a payload");
        assertSame(payload, taken.get(30, TimeUnit.SECONDS));
        assertFalse(payloads.slotAvailable(), "the only instance is executing");
        assertFalse(payload.tryLockForAppend(), "a taken payload is closed to appends");
    }

    @Test
    void eachWaitingInstanceOffersOneSlot() throws Exception
    {
        final PayloadQueue payloads = new PayloadQueue(2, false, 4, () ->
        {
        });
        final CompletableFuture<Payload> first = takeOne(payloads, "instance-1");
        final CompletableFuture<Payload> second = takeOne(payloads, "instance-2");
        final Payload one = payloads.acquire();
        awaitSlot(payloads);
        payloads.enqueue(one);
        // The other instance waits (or is about to): its slot is still open for a second batch.
        awaitSlot(payloads);
        final Payload two = payloads.acquire();
        payloads.enqueue(two);
        assertFalse(payloads.slotAvailable(), "both instances have a payload");
        final Payload a = first.get(30, TimeUnit.SECONDS);
        final Payload b = second.get(30, TimeUnit.SECONDS);
        assertTrue(a == one && b == two || a == two && b == one, "each instance took one of the two payloads");
        assertFalse(payloads.slotAvailable());
    }

    @Test
    void anInterruptedWaitingInstanceNoLongerOffersASlot() throws Exception
    {
        final PayloadQueue payloads = new PayloadQueue(1, false, 4, () ->
        {
        });
        final CompletableFuture<Payload> taken = new CompletableFuture<>();
        final Thread instance = Thread.ofPlatform().daemon(true).start(() ->
        {
            try
            {
                taken.complete(payloads.take());
            }
            catch (final Throwable ex)
            {
                taken.completeExceptionally(ex);
            }
        });
        awaitSlot(payloads);
        instance.interrupt();
        instance.join(TimeUnit.SECONDS.toMillis(30));
        assertTrue(taken.isCompletedExceptionally(), "take() ended by the interrupt");
        assertFalse(payloads.slotAvailable(), "the interrupted instance no longer waits");
    }

    @Test
    void withPrefetchUpToTwicePerInstanceMayBeQueuedAheadOfTheInstances()
    {
        final PayloadQueue payloads = new PayloadQueue(1, true, 4, () ->
        {
        });
        assertTrue(payloads.slotAvailable());
        payloads.enqueue(payloads.acquire());
        assertTrue(payloads.slotAvailable());
        payloads.enqueue(payloads.acquire());
        assertFalse(payloads.slotAvailable(), "two batches are queued for the one instance");
    }
}
