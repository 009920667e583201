package io.ingot.perf.support;

import io.ingot.backend.Backend;
import io.ingot.backend.Engine;
import io.ingot.backend.ModelContext;
import io.ingot.backend.builtin.IdentityBackendFactory;
import io.ingot.config.proto.ModelConfig;
import io.ingot.tensor.DataType;
import io.ingot.testing.FakeBatch;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SupportTest
{
    @Test
    void allocatorHandsBackReleasedBlocksAndRefusesOversizedOutputs()
    {
        try (ReusingResponseAllocator allocator = new ReusingResponseAllocator(64, 2))
        {
            final MemorySegment first = allocator.allocate("OUTPUT0", DataType.FP32, new long[] {1, 16},
                64);
            assertEquals(64, first.byteSize());
            allocator.release(first);
            assertSame(first, allocator.allocate("OUTPUT0", DataType.FP32, new long[] {1, 16}, 32));
            assertThrows(IllegalArgumentException.class,
                () -> allocator.allocate("OUTPUT0", DataType.FP32, new long[] {1, 17}, 68));
        }
    }

    @Test
    void theDirectCallBaselineRunsTheIdentityEngineOnTheCallersThreadIntoItsOwnOutput() throws Exception
    {
        final ModelConfig config = BenchModels.identity(8, 1);
        final ModelContext context = TestModels.context(config, null);
        try (Arena arena = Arena.ofShared(); Backend backend = new IdentityBackendFactory().load(context);
            Engine engine = backend.createEngine(TestModels.cpuInstance(context, 0)))
        {
            final MemorySegment input = arena.allocate(16);
            for (int i = 0; i < 4; i++)
            {
                input.setAtIndex(ValueLayout.JAVA_FLOAT, i, i + 0.5f);
            }
            final MemorySegment output = arena.allocate(16);
            final FakeBatch batch = new FakeBatch(config, 1, arena)
                .input("INPUT0", DataType.FP32, new long[] {1, 4}, input).outputInto("OUTPUT0", output);
            engine.execute(batch);
            assertEquals(-1, input.mismatch(output));
            assertTrue(batch.allocations().isEmpty(), "the engine wrote into the preset output, allocating nothing");
        }
    }
}
