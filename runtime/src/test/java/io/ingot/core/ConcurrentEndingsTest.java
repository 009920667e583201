package io.ingot.core;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelStatistics;
import io.ingot.testing.RecordingBackend;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.regex.Pattern;

import static io.ingot.testing.RecordingBackend.GATE;
import static io.ingot.testing.TestModels.tagged;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Requests that end while many threads publish: a storm of cancellations from other threads, and a stop in the middle
 * of a flood of submissions. Whatever the interleaving, each accepted request gets exactly one response.
 */
class ConcurrentEndingsTest
{
    private static final int PRODUCERS = 4;
    private static final int PER_PRODUCER = 500;
    private static final int TOTAL = PRODUCERS * PER_PRODUCER;
    /** What a submission meets once the core stops: the scheduler's words while the model stops, then the core's. */
    private static final Pattern STOPPED_REFUSALS = Pattern.compile(
        "\\[request id: r\\d+\\] Server is stopping, scheduler for model has stopped accepting new inference requests"
        + "|Server is stopping");

    private final RecordingBackend recording = new RecordingBackend();

    /** Counts each request's responses and keeps the first thing that was wrong with one. */
    private static final class Answers
    {
        final AtomicIntegerArray count;
        final AtomicReferenceArray<ErrorCode> code;
        final AtomicReferenceArray<String> message;
        final AtomicReference<String> firstProblem = new AtomicReference<>();
        final AtomicInteger answered = new AtomicInteger();

        Answers(final int size)
        {
            count = new AtomicIntegerArray(size);
            code = new AtomicReferenceArray<>(size);
            message = new AtomicReferenceArray<>(size);
        }

        void record(final int tag, final InferenceResponse response)
        {
            try (response)
            {
                if (count.incrementAndGet(tag) > 1)
                {
                    firstProblem.compareAndSet(null, "request " + tag + " answered twice");
                }
                if (response.isOk())
                {
                    code.set(tag, null);
                    final int echoed = response.output("OUTPUT0").data().get(ValueLayout.JAVA_INT, 0);
                    if (echoed != tag)
                    {
                        firstProblem.compareAndSet(null, "request " + tag + " got the output of " + echoed);
                    }
                }
                else
                {
                    code.set(tag, response.error().code());
                    message.set(tag, response.error().getMessage());
                }
            }
            answered.incrementAndGet();
        }

        void awaitAnswered(final int expected) throws InterruptedException
        {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (answered.get() < expected && System.nanoTime() < deadline)
            {
                Thread.sleep(5);
            }
            if (answered.get() < expected)
            {
                final StringBuilder unanswered = new StringBuilder();
                for (int tag = 0; tag < count.length() && unanswered.length() < 200; tag++)
                {
                    if (count.get(tag) == 0)
                    {
                        unanswered.append(' ').append(tag);
                    }
                }
                assertEquals(expected, answered.get(), "answered requests; unanswered:" + unanswered);
            }
        }
    }

    @Test
    void aCancellationStormFromOtherThreadsAnswersEachRequestOnceAndRunsNoneCancelledWhileQueued() throws Exception
    {
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("storm", 8,
            "dynamic_batching { max_queue_delay_microseconds: 100 }")))
        {
            final var recorder = recording.recorder("storm");
            final var gate = core.submit(tagged("storm", GATE, 1));
            recorder.awaitGateReached();

            final Answers answers = new Answers(TOTAL);
            final InferenceRequest[] requests = new InferenceRequest[TOTAL];
            final ConcurrentLinkedQueue<Integer> toCancel = new ConcurrentLinkedQueue<>();
            final List<Thread> producers = new ArrayList<>();
            for (int p = 0; p < PRODUCERS; p++)
            {
                final int producer = p;
                producers.add(Thread.ofPlatform().daemon().start(() ->
                {
                    for (int i = 0; i < PER_PRODUCER; i++)
                    {
                        final int tag = producer * PER_PRODUCER + i;
                        final InferenceRequest request = tagged("storm", tag, 1);
                        requests[tag] = request;
                        core.submit(request, response -> answers.record(tag, response));
                        toCancel.add(tag);
                    }
                }));
            }
            // Phase one, the instance blocked: every even request is cancelled while it is queued.
            final Set<Integer> cancelledWhileQueued = ConcurrentHashMap.newKeySet();
            final List<Thread> cancellers = new ArrayList<>();
            final CountDownLatch producersDone = new CountDownLatch(1);
            for (int c = 0; c < 2; c++)
            {
                cancellers.add(Thread.ofPlatform().daemon().start(() ->
                {
                    while (producersDone.getCount() > 0 || !toCancel.isEmpty())
                    {
                        final Integer tag = toCancel.poll();
                        if (tag == null)
                        {
                            Thread.onSpinWait();
                        }
                        else if (tag % 2 == 0)
                        {
                            requests[tag].cancel();
                            cancelledWhileQueued.add(tag);
                        }
                    }
                }));
            }
            for (final Thread producer : producers)
            {
                producer.join();
            }
            producersDone.countDown();
            for (final Thread canceller : cancellers)
            {
                canceller.join();
            }
            assertEquals(TOTAL / 2, cancelledWhileQueued.size());

            // Phase two: the instance runs while requests 1, 5, 9, ... are cancelled as it goes.
            recorder.openGate();
            final Thread lateCanceller = Thread.ofPlatform().daemon().start(() ->
            {
                for (int tag = 1; tag < TOTAL; tag += 4)
                {
                    requests[tag].cancel();
                }
            });
            lateCanceller.join();
            assertTrue(TestModels.await(gate).isOk());
            answers.awaitAnswered(TOTAL);

            assertNull(answers.firstProblem.get());
            final Set<Integer> executed = new HashSet<>();
            recorder.batches.forEach(executed::addAll);
            for (int tag = 0; tag < TOTAL; tag++)
            {
                assertEquals(1, answers.count.get(tag), "responses to request " + tag);
                final ErrorCode code = answers.code.get(tag);
                switch (tag % 4)
                {
                    case 0, 2 ->
                    {
                        assertEquals(ErrorCode.CANCELLED, code, "request " + tag + " was cancelled while queued");
                        assertEquals("[request id: r" + tag + "] Request for model 'storm' was cancelled",
                            answers.message.get(tag), "Triton's words, with the request's id and model");
                        assertFalse(executed.contains(tag), "request " + tag + " was cancelled yet executed");
                    }
                    case 1 -> assertTrue(code == null || code == ErrorCode.CANCELLED,
                        "request " + tag + ", cancelled late: " + code);
                    default -> assertNull(code, "request " + tag + " was never cancelled");
                }
            }
            final ModelStatistics stats = core.modelStatistics("storm", -1).get(0);
            assertEquals(0, stats.pendingRequests());
            assertEquals(TOTAL + 1, stats.inferenceStats().success().count() + stats.inferenceStats().fail().count());
        }
    }

    @Test
    void aStopDuringAFloodOfSubmissionsRefusesOrAnswersEachRequestExactlyOnce() throws Exception
    {
        final int capacity = PRODUCERS * 100_000;
        final InferenceCore core = TestModels.core(recording, TestModels.config("name: 'flood' backend: 'recording'"
            + " max_batch_size: 8"
            + " input [{ name: 'INPUT0' data_type: TYPE_INT32 dims: [1] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_INT32 dims: [1] }]"
            + " instance_group [{ kind: KIND_CPU count: 2 }]"
            + " parameters { key: 'execute_us' value: { string_value: '50' } }"
            + " dynamic_batching { max_queue_delay_microseconds: 100 }"));
        final Answers answers = new Answers(capacity);
        final AtomicInteger accepted = new AtomicInteger();
        final AtomicInteger refused = new AtomicInteger();
        final AtomicReference<String> wrongRefusal = new AtomicReference<>();
        final List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++)
        {
            final int producer = p;
            producers.add(Thread.ofPlatform().daemon().start(() ->
            {
                for (int i = 0; i < capacity / PRODUCERS; i++)
                {
                    final int tag = producer * (capacity / PRODUCERS) + i;
                    try
                    {
                        core.submit(tagged("flood", tag, 1), response -> answers.record(tag, response));
                        accepted.incrementAndGet();
                    }
                    catch (final InferenceException ex)
                    {
                        refused.incrementAndGet();
                        if (ex.code() != ErrorCode.UNAVAILABLE || !STOPPED_REFUSALS.matcher(ex.getMessage()).matches())
                        {
                            wrongRefusal.compareAndSet(null, ex.code() + ": " + ex.getMessage());
                        }
                        return;
                    }
                }
            }));
        }
        while (accepted.get() < 2_000)
        {
            Thread.sleep(1);
        }
        core.close();
        for (final Thread producer : producers)
        {
            producer.join(TimeUnit.SECONDS.toMillis(60));
        }
        assertNull(wrongRefusal.get());
        assertEquals(PRODUCERS, refused.get(), "every producer was refused once the core stopped");
        answers.awaitAnswered(accepted.get());
        assertNull(answers.firstProblem.get());
        int stopped = 0;
        for (int tag = 0; tag < capacity; tag++)
        {
            assertTrue(answers.count.get(tag) <= 1, "responses to request " + tag);
            final ErrorCode code = answers.code.get(tag);
            assertTrue(code == null || code == ErrorCode.UNAVAILABLE, "request " + tag + ": " + code);
            if (code == ErrorCode.UNAVAILABLE)
            {
                stopped++;
                assertEquals("[request id: r" + tag + "] Server is stopping, scheduler for model has stopped accepting"
                    + " new inference requests", answers.message.get(tag), "Triton's words for a request the stop"
                    + " ended in the queue");
            }
        }
        assertTrue(stopped < accepted.get(), "some requests ran before the stop");
    }
}
