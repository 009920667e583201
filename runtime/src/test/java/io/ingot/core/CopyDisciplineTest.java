package io.ingot.core;

import io.ingot.tensor.DataType;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ResponseAllocator;
import io.ingot.instance.PooledResponseAllocator;
import io.ingot.testing.RecordingBackend;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static io.ingot.testing.RecordingBackend.GATE;
import static io.ingot.testing.TestModels.await;
import static io.ingot.testing.TestModels.tagged;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The copy discipline of DESIGN.md: a batch of one reads the request's own memory and writes straight into the
 * response's; a larger batch copies each input byte once into staging, and no output byte after the run for pooled
 * responses (the engine writes the batch's output in response memory and each response gets a slice of it: see
 * {@link SharedOutputSlicesTest}); a request with an allocator of its own gets each output byte copied once into the
 * memory that allocator gives.
 */
class CopyDisciplineTest
{
    /** This test's own recording backend: what it records is seen by no other test. */
    private final RecordingBackend recording = new RecordingBackend();

    /** Records what it hands out and what comes back. */
    private static final class CountingAllocator implements ResponseAllocator
    {
        final List<MemorySegment> allocated = new CopyOnWriteArrayList<>();
        final AtomicInteger released = new AtomicInteger();

        @Override
        public MemorySegment allocate(final String outputName, final DataType dataType, final long[] shape,
            final long byteSize)
        {
            final MemorySegment memory = Arena.ofAuto().allocate(byteSize + 64, 64);
            allocated.add(memory);
            return memory;
        }

        @Override
        public void release(final MemorySegment memory)
        {
            assertTrue(allocated.stream().anyMatch(m -> m.address() == memory.address()
                && m.byteSize() == memory.byteSize()), "released a segment that was not allocated as such");
            released.incrementAndGet();
        }
    }

    @Test
    void aBatchOfOnePassesTheRequestsMemoryThroughAndWritesStraightIntoTheResponse() throws Exception
    {
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("zc1", 8, "dynamic_batching {}")))
        {
            final CountingAllocator allocator = new CountingAllocator();
            final MemorySegment input = Arena.ofAuto().allocate(4, 4);
            input.set(ValueLayout.JAVA_INT, 0, 42);
            final InferenceRequest request = new InferenceRequest("zc1").responseAllocator(allocator)
                .addInput("INPUT0", DataType.INT32, new long[] {1, 1}, input);
            final InferenceResponse response = await(core.submit(request));
            assertTrue(response.isOk());
            final long[] seen = recording.recorder("zc1").inputMemory.get(0);
            assertEquals(input.address(), seen[0], "the engine read the request's own memory");
            assertEquals(1, allocator.allocated.size(), "one allocation for the one output");
            final MemorySegment output = response.output("OUTPUT0").data();
            assertEquals(allocator.allocated.get(0).address(), output.address(),
                "the engine wrote into the response's memory: no scatter copy");
            assertEquals(4, output.byteSize());
            assertEquals(42, output.get(ValueLayout.JAVA_INT, 0));
            response.close();
            assertEquals(1, allocator.released.get());
            response.close();
            assertEquals(1, allocator.released.get(), "closing twice releases once");
        }
    }

    @Test
    void heapInputsAreCopiedOnceIntoNativeStagingForEnginesThatNeedNativeMemory() throws Exception
    {
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("zc2", 8, "dynamic_batching {}")))
        {
            final InferenceRequest request = new InferenceRequest("zc2")
                .addInput("INPUT0", DataType.INT32, new long[] {1, 1}, MemorySegment.ofArray(new int[] {7}));
            try (InferenceResponse response = await(core.submit(request)))
            {
                assertTrue(response.isOk());
                assertEquals(7, response.output("OUTPUT0").data().get(ValueLayout.JAVA_INT, 0));
            }
            assertEquals(1, recording.recorder("zc2").inputMemory.get(0)[1], "staging is native");
        }
    }

    @Test
    void aLargerBatchWithItsOwnAllocatorIsAssembledIntoStagingAndScatteredOncePerResponse() throws Exception
    {
        try (InferenceCore core = TestModels.core(recording, TestModels.recording("zc3", 8, "dynamic_batching {"
            + " default_queue_policy { max_queue_size: 10 } }")))
        {
            final var recorder = recording.recorder("zc3");
            final CountingAllocator allocator = new CountingAllocator();
            final var gate = core.submit(tagged("zc3", GATE, 1));
            recorder.awaitGateReached();
            final InferenceRequest a = tagged("zc3", 1, 2).responseAllocator(allocator);
            final InferenceRequest b = tagged("zc3", 2, 3).responseAllocator(allocator);
            final var fa = core.submit(a);
            final var fb = core.submit(b);
            recorder.openGate();
            await(gate).close();
            try (InferenceResponse ra = await(fa); InferenceResponse rb = await(fb))
            {
                assertEquals(List.of(1, 1, 2, 2, 2), recorder.batches.get(1));
                assertNotEquals(a.inputData(0).address(), recorder.inputMemory.get(1)[0], "assembled in staging");
                assertEquals(2, allocator.allocated.size(), "one allocation per response output");
                assertEquals(List.of(2L, 1L), List.of(ra.output("OUTPUT0").dim(0), ra.output("OUTPUT0").dim(1)));
                assertEquals(3, rb.output("OUTPUT0").dim(0));
                for (int i = 0; i < 3; i++)
                {
                    assertEquals(2, rb.output("OUTPUT0").data().getAtIndex(ValueLayout.JAVA_INT, i));
                }
                assertEquals(1, ra.output("OUTPUT0").data().getAtIndex(ValueLayout.JAVA_INT, 1));
            }
            assertEquals(2, allocator.released.get());
        }
    }

    @Test
    void aLargerBatchOfPooledResponsesIsNotCopiedAfterTheRun() throws Exception
    {
        final PooledResponseAllocator pool = new PooledResponseAllocator();
        try (InferenceCore core = InferenceCore.open(TestModels.options(TestModels.recording("zc4", 8,
            "dynamic_batching { default_queue_policy { max_queue_size: 10 } }")).backend(recording)
            .responseAllocator(pool).build()))
        {
            final var recorder = recording.recorder("zc4");
            final var gate = core.submit(tagged("zc4", GATE, 1));
            recorder.awaitGateReached();
            final var fa = core.submit(tagged("zc4", 1, 2));
            final var fb = core.submit(tagged("zc4", 2, 3));
            recorder.openGate();
            await(gate).close();
            final InferenceResponse ra = await(fa);
            final InferenceResponse rb = await(fb);
            assertEquals(List.of(1, 1, 2, 2, 2), recorder.batches.get(1));
            final MemorySegment a = ra.output("OUTPUT0").data();
            final MemorySegment b = rb.output("OUTPUT0").data();
            assertEquals(8, a.byteSize());
            assertEquals(a.address() + 8, b.address(), "both responses are rows of the one output the engine wrote");
            assertEquals(List.of(1, 1), List.of(a.getAtIndex(ValueLayout.JAVA_INT, 0),
                a.getAtIndex(ValueLayout.JAVA_INT, 1)));
            assertEquals(2, b.getAtIndex(ValueLayout.JAVA_INT, 2));
            final long before = pool.sharedReturns();
            ra.close();
            assertEquals(before, pool.sharedReturns(), "still held by the other response");
            rb.close();
            assertEquals(before + 1, pool.sharedReturns(), "returned to the pool once, by the last response");
        }
    }
}
