package io.ingot.fil;

import io.ingot.fil.lightgbm.LgbmBooster;
import io.ingot.fil.xgboost.XgbBooster;
import io.ingot.backend.Batch;
import io.ingot.backend.BatchInput;
import io.ingot.config.proto.ModelConfig;
import io.ingot.tensor.DataType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An instance's {@code execute} allocates nothing on the Java heap once warm, for both libraries, one row (the
 * single-row paths) and many: inputs are read in place and outputs written into the batch's memory. Measured with
 * the thread's allocation counter, not time; "warm" is the best of a few rounds, since the JIT may still be compiling
 * the path when the first round starts.
 */
class SteadyStateAllocationTest
{
    private static final int WARM_UP = 10_000;
    private static final int MEASURED = 5_000;
    /** Rounds measured at most: the JIT may still be compiling the path (on a busy machine) in the first ones. */
    private static final int ROUNDS = 10;
    /** Headroom for what the JIT may still allocate in a rare deoptimised call; far below one byte per call. */
    private static final long ALLOWED_BYTES = 4_096;

    @TempDir
    Path repo;

    @Test
    void executeAllocatesNothingOnceWarm() throws Exception
    {
        try (XgbBooster xgb = TreeModels.xgbBinary(); LgbmBooster lgbm = TreeModels.lgbmBinary())
        {
            TreeModels.xgbModel(repo, "xgb", xgb, "xgboost.json", TreeModels.config("xgb", "xgboost_json", true, true,
                2, ""));
            TreeModels.lgbmModel(repo, "lgbm", lgbm, TreeModels.config("lgbm", "lightgbm", true, true, 2, ""));
        }
        for (final String model : new String[] {"xgb", "lgbm"})
        {
            for (final int rows : new int[] {1, 8})
            {
                assertTrue(allocatedPerRun(model, rows) <= ALLOWED_BYTES, model + " with " + rows + " rows");
            }
        }
    }

    /**
     * A batch over fixed memory that itself allocates nothing (the test-support {@code FakeBatch} iterates protobuf
     * lists and slices memory per call), so that the count is the engine's alone.
     */
    private record FixedBatch(ModelConfig config, int batchSize, MemorySegment rows, MemorySegment output)
        implements Batch, BatchInput
    {
        @Override
        public int requestCount()
        {
            return 1;
        }

        @Override
        public int inputCount()
        {
            return 1;
        }

        @Override
        public BatchInput input(final int index)
        {
            return this;
        }

        @Override
        public BatchInput input(final String name)
        {
            return this;
        }

        @Override
        public boolean isOutputRequested(final String name)
        {
            return true;
        }

        @Override
        public MemorySegment allocateOutput(final String name, final long[] shape)
        {
            return output;
        }

        @Override
        public MemorySegment allocateOutput(final String name, final long[] shape, final long byteSize)
        {
            return output;
        }

        @Override
        public String name()
        {
            return "input__0";
        }

        @Override
        public DataType dataType()
        {
            return DataType.FP32;
        }

        @Override
        public int rank()
        {
            return 2;
        }

        @Override
        public long dim(final int dimension)
        {
            return dimension == 0 ? batchSize : 2;
        }

        @Override
        public long[] shape()
        {
            return new long[] {batchSize, 2};
        }

        @Override
        public MemorySegment data()
        {
            return rows;
        }
    }

    private long allocatedPerRun(final String model, final int rows) throws Exception
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        try (FilHarness fil = FilHarness.open(repo.resolve(model)); Arena arena = Arena.ofConfined())
        {
            final MemorySegment input = arena.allocate(ValueLayout.JAVA_FLOAT, 2L * rows);
            for (int i = 0; i < rows; i++)
            {
                input.setAtIndex(ValueLayout.JAVA_FLOAT, 2L * i, i);
            }
            final MemorySegment output = arena.allocate(ValueLayout.JAVA_FLOAT, 2L * rows);
            final FixedBatch batch = new FixedBatch(fil.config, rows, input, output);
            for (int i = 0; i < WARM_UP; i++)
            {
                fil.engine.execute(batch);
            }
            long allocated = Long.MAX_VALUE;
            for (int round = 0; round < ROUNDS && allocated > ALLOWED_BYTES; round++)
            {
                final long before = threads.getCurrentThreadAllocatedBytes();
                for (int i = 0; i < MEASURED; i++)
                {
                    fil.engine.execute(batch);
                }
                allocated = threads.getCurrentThreadAllocatedBytes() - before;
            }
            assertEquals(1 - output.getAtIndex(ValueLayout.JAVA_FLOAT, 1), output.getAtIndex(ValueLayout.JAVA_FLOAT, 0),
                1e-6, "the engine wrote [1 - p, p]");
            System.out.println("SteadyStateAllocationTest: " + model + ", " + rows + " rows: " + allocated
                + " bytes over " + MEASURED + " executions");
            return allocated;
        }
    }
}
