package io.ingot.trt.reference;

import io.ingot.tensor.DataType;
import io.ingot.backend.Backend;
import io.ingot.backend.Engine;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.device.CudaPinnedAllocator;
import io.ingot.device.PinnedAllocator;
import io.ingot.testing.GpuTest;
import io.ingot.testing.TestModels;
import io.ingot.trt.gpu.CudaMemoryOps;
import io.ingot.trt.testing.Models;
import io.ingot.testing.FakeBatch;
import io.ingot.trt.testing.TimelineOps;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The GPU reference backends on a real GPU: identity and the cuBLAS MLP are correct on fresh random data, and four
 * instances of one model on one GPU run on four streams whose executions overlap in time (from CUDA event
 * timestamps). Tagged {@code gpu}: skipped with the printed reason where no GPU is usable.
 */
@GpuTest
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ReferenceBackendsGpuTest
{
    private static PinnedAllocator pinned;

    @BeforeAll
    static void requireGpu()
    {
        pinned = new CudaPinnedAllocator();
    }

    @AfterAll
    static void closeAllocator()
    {
        if (pinned != null)
        {
            pinned.close();
        }
    }

    @Test
    void identityCopiesFreshRandomDataThroughTheGpu() throws Exception
    {
        final long seed = System.nanoTime();
        final SplittableRandom random = new SplittableRandom(seed);
        final ModelConfig config = TestModels.config(ReferenceBackendsTest.IDENTITY_CONFIG);
        final ModelContext model = TestModels.context(config, null);
        try (Backend backend = new CudaIdentityBackendFactory().load(model);
             Engine engine = backend.createEngine(Models.gpuInstance(model, 0)))
        {
            for (int round = 0; round < 20; round++)
            {
                final int rows = 1 + random.nextInt(16);
                final int width = 1 + random.nextInt(100_000);
                final float[] floats = new float[rows * 3];
                final long[] longs = new long[rows * width];
                for (int i = 0; i < floats.length; i++)
                {
                    floats[i] = (float) random.nextDouble();
                }
                for (int i = 0; i < longs.length; i++)
                {
                    longs[i] = random.nextLong();
                }
                try (FakeBatch batch = new FakeBatch(config, rows, round % 2 == 0 ? pinned : null))
                {
                    batch.input("INPUT0", DataType.FP32, new long[] {rows, 3}, floats)
                        .input("INPUT1", DataType.INT64, new long[] {rows, width}, longs);
                    engine.execute(batch);
                    assertArrayEquals(floats, batch.floats("OUTPUT0"), "seed " + seed + " round " + round);
                    assertArrayEquals(longs, batch.output("OUTPUT1").toArray(java.lang.foreign.ValueLayout.JAVA_LONG),
                        "seed " + seed + " round " + round);
                }
            }
        }
    }

    @Test
    void mlpMatchesTheCpuReferenceOnTheGpu() throws Exception
    {
        final long seed = System.nanoTime();
        final SplittableRandom random = new SplittableRandom(seed);
        final ModelConfig config = TestModels.config("""
            name: "mlp" backend: "cublas_mlp" max_batch_size: 64
            input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 256 ] } ]
            output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 10 ] } ]
            parameters { key: "layers" value { string_value: "256,512,128,10" } }
            parameters { key: "seed" value { string_value: "%d" } }
            """.formatted(seed));
        final MlpSpec spec = MlpSpec.from("test", config);
        final ModelContext model = TestModels.context(config, null);
        try (Backend backend = new CublasMlpBackendFactory().load(model);
             Engine engine = backend.createEngine(Models.gpuInstance(model, 0)))
        {
            for (final int rows : new int[] {1, 2, 17, 64})
            {
                final float[] input = new float[rows * 256];
                for (int i = 0; i < input.length; i++)
                {
                    input[i] = (float) (random.nextDouble() * 2 - 1);
                }
                try (FakeBatch batch = new FakeBatch(config, rows, pinned))
                {
                    batch.input("INPUT0", DataType.FP32, new long[] {rows, 256}, input);
                    engine.execute(batch);
                    MlpReference.assertClose(MlpReference.run(spec, input, rows), batch.floats("OUTPUT0"),
                        "seed " + seed + ", batch of " + rows);
                }
            }
        }
    }

    @Test
    void fourInstancesOnOneGpuOverlapAndStayCorrect() throws Exception
    {
        final int instances = 4;
        final int batchesPerInstance = 12;
        final int rows = 256;
        final ModelConfig config = TestModels.config("""
            name: "wide" backend: "cublas_mlp" max_batch_size: 256
            input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 2048 ] } ]
            output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 2048 ] } ]
            parameters { key: "layers" value { string_value: "2048,4096,4096,2048" } }
            parameters { key: "seed" value { string_value: "99" } }
            instance_group [ { kind: KIND_GPU count: 4 } ]
            """);
        final MlpSpec spec = MlpSpec.from("test", config);
        final MlpWeights weights = MlpWeights.generate(spec);
        final ModelContext model = TestModels.context(config, null);
        final ExecutorService threads = Executors.newFixedThreadPool(instances);
        try (TimelineOps timeline = new TimelineOps(new CudaMemoryOps());
             Backend backend = new CublasMlpBackendFactory(timeline, CublasDenseKernel::new).load(model))
        {
            final List<Engine> engines = new ArrayList<>();
            for (int i = 0; i < instances; i++)
            {
                engines.add(backend.createEngine(Models.gpuInstance(model, i)));
            }
            // Each engine's weight upload was recorded like an execution; only the executions below are counted.
            timeline.discardRecorded();
            final long seed = System.nanoTime();
            final CyclicBarrier prepared = new CyclicBarrier(instances);
            final List<Future<Integer>> checked = new ArrayList<>();
            for (int i = 0; i < instances; i++)
            {
                final Engine engine = engines.get(i);
                final SplittableRandom random = new SplittableRandom(seed + i);
                checked.add(threads.submit(() ->
                {
                    // Inputs and pinned memory are prepared first, so that once started each thread only executes:
                    // back-to-back executions on four threads are what must overlap on the GPU.
                    final List<float[]> inputs = new ArrayList<>();
                    final List<FakeBatch> batches = new ArrayList<>();
                    try
                    {
                        for (int b = 0; b < batchesPerInstance; b++)
                        {
                            final float[] input = new float[rows * 2048];
                            for (int e = 0; e < input.length; e++)
                            {
                                input[e] = (float) (random.nextDouble() * 2 - 1);
                            }
                            inputs.add(input);
                            batches.add(new FakeBatch(config, rows, pinned)
                                .input("INPUT0", DataType.FP32, new long[] {rows, 2048}, input));
                        }
                        prepared.await(2, TimeUnit.MINUTES);
                        for (final FakeBatch batch : batches)
                        {
                            engine.execute(batch);
                        }
                        // Checking every row on the CPU would take minutes; two rows per batch catch any mix-up
                        // between instances' buffers or streams.
                        int rowsChecked = 0;
                        for (int b = 0; b < batchesPerInstance; b++)
                        {
                            final float[] output = batches.get(b).floats("OUTPUT0");
                            for (final int row : new int[] {b % rows, rows - 1 - b})
                            {
                                final float[] one = java.util.Arrays.copyOfRange(inputs.get(b), row * 2048,
                                    (row + 1) * 2048);
                                MlpReference.assertClose(MlpReference.run(spec, weights, one, 1),
                                    java.util.Arrays.copyOfRange(output, row * 2048, (row + 1) * 2048),
                                    "seed " + seed + ", batch " + b + ", row " + row);
                                rowsChecked++;
                            }
                        }
                        return rowsChecked;
                    }
                    finally
                    {
                        batches.forEach(FakeBatch::close);
                    }
                }));
            }
            for (final Future<Integer> result : checked)
            {
                assertEquals(2 * batchesPerInstance, result.get(4, TimeUnit.MINUTES));
            }
            for (final Engine engine : engines)
            {
                engine.close();
            }
            final List<TimelineOps.Interval> intervals = timeline.intervals();
            assertEquals(instances * batchesPerInstance, intervals.size());
            final long overlapping = TimelineOps.overlappingPairs(intervals);
            final int peak = TimelineOps.peakConcurrency(intervals);
            System.out.printf("four instances: %d executions, %d overlapping pairs across streams, up to %d at once%n",
                intervals.size(), overlapping, peak);
            assertTrue(overlapping > 0, "executions of different instances never overlapped: " + intervals);
            assertTrue(peak >= 2, "peak concurrency " + peak);
        }
        finally
        {
            threads.shutdownNow();
        }
    }
}
