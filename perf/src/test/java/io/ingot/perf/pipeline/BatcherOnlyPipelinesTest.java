package io.ingot.perf.pipeline;

import io.ingot.api.IdleMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The batchers alone (the intake comparison's {@code scope=batcher}): every submitted request completes, from many
 * threads, and closing a batcher with requests still queued answers them — a caller never waits forever.
 */
class BatcherOnlyPipelinesTest
{
    @ParameterizedTest
    @ValueSource(strings = {"ingot", "djl-style", "triton-style"})
    void everyRequestFromTwoProducersCompletesInBatches(final String name) throws Exception
    {
        try (Arena arena = Arena.ofShared();
            Pipeline batcher = Pipelines.createBatcherOnly(name, 64, IdleMode.BLOCKING))
        {
            final int perProducer = 20_000;
            final List<Thread> producers = new ArrayList<>();
            for (int p = 0; p < 2; p++)
            {
                final PipelineSlot[] window = new PipelineSlot[32];
                for (int i = 0; i < window.length; i++)
                {
                    window[i] = batcher.newSlot(arena);
                }
                producers.add(Thread.ofPlatform().start(() ->
                {
                    for (int i = 0; i < perProducer; i++)
                    {
                        final PipelineSlot slot = window[i % window.length];
                        slot.await(TimeUnit.MILLISECONDS.toNanos(1));
                        slot.begin();
                        batcher.submit(slot);
                    }
                    for (final PipelineSlot slot : window)
                    {
                        slot.await(TimeUnit.MILLISECONDS.toNanos(1));
                    }
                }));
            }
            for (final Thread producer : producers)
            {
                producer.join(TimeUnit.SECONDS.toMillis(60));
                assertTrue(!producer.isAlive(), name + ": a producer still waits for a response");
            }
            assertEquals(2L * perProducer, batcher.requests(), name + ": requests the batcher completed");
            assertTrue(batcher.executions() <= batcher.requests(), name + ": batches never outnumber requests");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"ingot", "djl-style", "triton-style"})
    void closingWithRequestsInFlightAnswersEveryOne(final String name)
    {
        try (Arena arena = Arena.ofShared())
        {
            final Pipeline batcher = Pipelines.createBatcherOnly(name, 8, IdleMode.BLOCKING);
            final List<PipelineSlot> slots = new ArrayList<>();
            for (int i = 0; i < 200; i++)
            {
                final PipelineSlot slot = batcher.newSlot(arena);
                slot.begin();
                batcher.submit(slot);
                slots.add(slot);
            }
            batcher.close();
            for (final PipelineSlot slot : slots)
            {
                assertTrue(slot.isDone(), name + ": a request submitted before close was never answered");
            }
        }
    }
}
