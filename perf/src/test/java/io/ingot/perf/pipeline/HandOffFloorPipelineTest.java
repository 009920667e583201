package io.ingot.perf.pipeline;

import io.ingot.api.IdleMode;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hand-off floor does the work every pipeline does, so that it is a floor and not a shortcut: each request's
 * output row is its input row through the identity engine, every request completes, batches stay within the
 * maximum, and closing it answers whatever it had not taken.
 */
class HandOffFloorPipelineTest
{
    @Test
    void oneSubmitterKeepingSixtyFourInFlightGetsEachRowEchoedInBatchesOfAtMostTheMaximum()
    {
        try (Arena arena = Arena.ofShared(); Pipeline floor = Pipelines.create(Pipelines.HAND_OFF_FLOOR, 2, 8,
            IdleMode.BLOCKING))
        {
            final PipelineSlot[] slots = new PipelineSlot[64];
            for (int i = 0; i < slots.length; i++)
            {
                slots[i] = floor.newSlot(arena);
            }
            final int requests = 50_000;
            for (int n = 0; n < requests; n++)
            {
                final PipelineSlot slot = slots[n % slots.length];
                if (n >= slots.length)
                {
                    slot.await(Long.MAX_VALUE);
                    final float sent = n - slots.length;
                    assertEquals(sent, slot.output().getAtIndex(ValueLayout.JAVA_FLOAT, 0), "row " + sent);
                    assertEquals(2 * sent + 1, slot.output().getAtIndex(ValueLayout.JAVA_FLOAT, 1), "row " + sent);
                }
                slot.input().setAtIndex(ValueLayout.JAVA_FLOAT, 0, n);
                slot.input().setAtIndex(ValueLayout.JAVA_FLOAT, 1, 2f * n + 1);
                slot.begin();
                floor.submit(slot);
            }
            for (final PipelineSlot slot : slots)
            {
                slot.await(Long.MAX_VALUE);
            }
            assertEquals(requests, floor.requests());
            assertTrue(floor.executions() * 8 >= floor.requests(), "at most 8 requests per batch");
        }
    }

    @Test
    void closingAnswersEveryRequestItWasGiven()
    {
        try (Arena arena = Arena.ofShared())
        {
            final Pipeline floor = Pipelines.create(Pipelines.HAND_OFF_FLOOR, 1, 8, IdleMode.BLOCKING);
            final List<PipelineSlot> slots = new ArrayList<>();
            for (int i = 0; i < 500; i++)
            {
                final PipelineSlot slot = floor.newSlot(arena);
                slot.begin();
                floor.submit(slot);
                slots.add(slot);
            }
            floor.close();
            for (final PipelineSlot slot : slots)
            {
                assertTrue(slot.isDone(), "a request submitted before close was never answered");
            }
        }
    }
}
