package io.ingot.benchmarks.support;

import io.ingot.backend.Backend;
import io.ingot.backend.Engine;
import io.ingot.backend.InstanceContext;
import io.ingot.backend.ModelContext;
import io.ingot.backend.builtin.IdentityBackendFactory;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInstanceGroup;
import io.ingot.device.HostPinnedAllocator;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SupportTest
{
    @Test
    void allocatorHandsBackReleasedBlocksAndRefusesOversizedOutputs()
    {
        try (ReusingResponseAllocator allocator = new ReusingResponseAllocator(64, 2))
        {
            final MemorySegment first = allocator.allocate("OUTPUT0", io.ingot.api.DataType.FP32, new long[] {1, 16},
                64);
            assertEquals(64, first.byteSize());
            allocator.release(first);
            assertSame(first, allocator.allocate("OUTPUT0", io.ingot.api.DataType.FP32, new long[] {1, 16}, 32));
            assertThrows(IllegalArgumentException.class,
                () -> allocator.allocate("OUTPUT0", io.ingot.api.DataType.FP32, new long[] {1, 17}, 68));
        }
    }

    @Test
    void directBatchRunsTheIdentityEngineOnTheCallersThread() throws Exception
    {
        final ModelConfig config = BenchModels.identity(8, 1);
        final ModelContext context = new ModelContext("identity", 1, config, null, null, new HostPinnedAllocator());
        try (Arena arena = Arena.ofConfined(); Backend backend = new IdentityBackendFactory().load(context);
            Engine engine = backend.createEngine(new InstanceContext(context, "direct", 0,
                ModelInstanceGroup.Kind.KIND_CPU, -1, List.of())))
        {
            final MemorySegment input = arena.allocate(16);
            for (int i = 0; i < 4; i++)
            {
                input.setAtIndex(ValueLayout.JAVA_FLOAT, i, i + 0.5f);
            }
            final MemorySegment output = arena.allocate(16);
            engine.execute(new DirectBatch(config, new long[] {1, 4}, input, output));
            assertEquals(-1, input.mismatch(output));
        }
    }
}
