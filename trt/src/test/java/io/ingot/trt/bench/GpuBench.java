package io.ingot.trt.bench;

import io.ingot.backend.Backend;
import io.ingot.backend.Engine;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.cuda.CudaRuntime;
import io.ingot.device.CudaEvent;
import io.ingot.device.CudaPinnedAllocator;
import io.ingot.device.CudaStream;
import io.ingot.device.DeviceBuffer;
import io.ingot.device.DeviceDiscovery;
import io.ingot.device.HostPinnedAllocator;
import io.ingot.device.PinnedAllocator;
import io.ingot.tensor.DataType;
import io.ingot.testing.FakeBatch;
import io.ingot.testing.TestModels;
import io.ingot.trt.gpu.HostMemoryOps;
import io.ingot.trt.reference.HostDenseKernel;
import io.ingot.trt.reference.CublasMlpBackendFactory;
import io.ingot.trt.reference.CudaIdentityBackendFactory;
import io.ingot.trt.testing.Models;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * GPU measurements for {@code tools/gpu-check.sh}: pinned versus pageable host-to-device bandwidth against the best
 * the copy engine reached in the same run, {@code cuda_identity} overhead at batch 1 (Triton's no-model case), and
 * {@code cublas_mlp} throughput with dynamic batching against batch-1 execution at the same concurrency.
 *
 * <p>Prints one machine-readable line per result, {@code GPUBENCH | name | value | unit | detail}, then a table.
 * Exit status: 0 measured, 3 no usable GPU (nothing measured), 1 a measurement failed. Run with
 * {@code --enable-native-access=ALL-UNNAMED}; {@code --quick} shortens every phase (a smoke run).
 *
 * <p>The batching comparison drives the engines directly with a minimal closed-loop harness (clients waiting for
 * their response before sending the next request; instance threads taking either one request or every queued
 * request up to {@code max_batch_size}, with no queue delay) because it measures what batching buys on the GPU,
 * not Ingot's scheduler; the scheduler's own benchmarks run through the runtime core.
 */
public final class GpuBench
{
    private static final long MIB = 1L << 20;
    private static final List<String[]> ROWS = new ArrayList<>();

    private GpuBench()
    {
    }

    /** What the measurements run on: the GPU, or host memory for a smoke run of the harness itself. */
    record Setup(boolean gpu, CudaIdentityBackendFactory identity, CublasMlpBackendFactory mlp,
        java.util.function.Supplier<PinnedAllocator> allocators, int mlpWidth, String mlpLayers)
    {
        static Setup onGpu()
        {
            return new Setup(true, new CudaIdentityBackendFactory(), new CublasMlpBackendFactory(),
                CudaPinnedAllocator::new, 1024, "1024,4096,4096,1024");
        }

        static Setup onHost()
        {
            final HostMemoryOps host = new HostMemoryOps();
            return new Setup(false, new CudaIdentityBackendFactory(host),
                new CublasMlpBackendFactory(host, stream -> new HostDenseKernel()), HostPinnedAllocator::new, 32,
                "32,32");
        }
    }

    /**
     * @param args {@code --quick} for a short smoke run
     */
    public static void main(final String[] args)
    {
        System.exit(run(Setup.onGpu(), Arrays.asList(args).contains("--quick")));
    }

    /**
     * Runs every measurement and prints the rows and the table.
     *
     * @param setup what to run on
     * @param quick shorten every phase
     * @return 0 measured, 3 no usable GPU, 1 a measurement failed
     */
    static int run(final Setup setup, final boolean quick)
    {
        ROWS.clear();
        if (setup.gpu())
        {
            final DeviceDiscovery.Result discovery = DeviceDiscovery.discover();
            if (!discovery.hasDevices())
            {
                row("skipped", "-", "-", "no usable GPU: " + discovery.reason());
                printTable();
                return 3;
            }
            row("device", discovery.devices().getFirst().name(), "-", discovery.reason());
        }
        else
        {
            row("device", "host", "-", "smoke run of the harness on host memory: the numbers mean nothing");
        }
        int status = 0;
        try
        {
            if (setup.gpu())
            {
                CudaRuntime.cudaSetDevice(0);
                bandwidth(quick);
            }
            identityOverhead(setup, quick);
            batchingThroughput(setup, quick);
        }
        catch (final Exception | AssertionError failure)
        {
            row("failed", "-", "-", failure.toString());
            failure.printStackTrace();
            status = 1;
        }
        printTable();
        return status;
    }

    /** @return the rows printed by the last {@link #run}: name, value, unit, detail */
    static List<String[]> rows()
    {
        return List.copyOf(ROWS);
    }

    /** H2D from pinned and from pageable memory, each against the best pinned bandwidth of this run. */
    private static void bandwidth(final boolean quick)
    {
        final long[] sizes = quick ? new long[] {16 * MIB, 64 * MIB} : new long[] {16 * MIB, 64 * MIB, 256 * MIB};
        final int repeats = quick ? 3 : 10;
        final long largest = sizes[sizes.length - 1];
        double peak = 0;
        final double[] pinnedRates = new double[sizes.length];
        final double[] pageableRates = new double[sizes.length];
        try (Arena arena = Arena.ofConfined(); CudaPinnedAllocator allocator = new CudaPinnedAllocator();
             CudaStream stream = CudaStream.create(); DeviceBuffer device = DeviceBuffer.allocate(largest))
        {
            final MemorySegment pinned = allocator.allocate(largest, arena);
            final MemorySegment pageable = arena.allocate(largest, 4096);
            // Touch every page: first-touch faults must not be measured as copy time.
            pageable.fill((byte) 1);
            pinned.fill((byte) 1);
            for (int s = 0; s < sizes.length; s++)
            {
                pinnedRates[s] = copyRate(pinned, device, sizes[s], repeats, stream);
                pageableRates[s] = copyRate(pageable, device, sizes[s], repeats, stream);
                peak = Math.max(peak, pinnedRates[s]);
            }
        }
        row("h2d_peak", format(peak), "GB/s", "best pinned host-to-device rate of this run (the copy engine's peak)");
        for (int s = 0; s < sizes.length; s++)
        {
            final String size = (sizes[s] / MIB) + "MiB";
            row("h2d_pinned_" + size, format(pinnedRates[s]), "GB/s",
                String.format(Locale.ROOT, "%.0f%% of peak", 100 * pinnedRates[s] / peak));
            row("h2d_pageable_" + size, format(pageableRates[s]), "GB/s",
                String.format(Locale.ROOT, "%.0f%% of peak; pinned is %.1fx faster", 100 * pageableRates[s] / peak,
                    pinnedRates[s] / pageableRates[s]));
        }
    }

    private static double copyRate(final MemorySegment host, final DeviceBuffer device, final long bytes,
        final int repeats, final CudaStream stream)
    {
        try (CudaEvent start = CudaEvent.create(CudaRuntime.cudaEventDefault);
             CudaEvent end = CudaEvent.create(CudaRuntime.cudaEventDefault))
        {
            CudaRuntime.cudaMemcpyAsync(device.address(), host, bytes, CudaRuntime.cudaMemcpyHostToDevice,
                stream.handle());
            stream.synchronize();
            start.record(stream);
            for (int i = 0; i < repeats; i++)
            {
                CudaRuntime.cudaMemcpyAsync(device.address(), host, bytes, CudaRuntime.cudaMemcpyHostToDevice,
                    stream.handle());
            }
            end.record(stream);
            end.synchronize();
            final double seconds = end.elapsedMillisSince(start) / 1000.0;
            return bytes * (double) repeats / seconds / 1e9;
        }
    }

    /** One execute() of cuda_identity with one 16-float row: H2D, D2D, D2H and the wait, from the instance thread. */
    private static void identityOverhead(final Setup setup, final boolean quick) throws Exception
    {
        final ModelConfig config = TestModels.config("""
            name: "identity" backend: "cuda_identity" max_batch_size: 1
            input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
            output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
            """);
        final ModelContext model = TestModels.context(config, null);
        final int warmup = quick ? 200 : 2_000;
        final int measured = quick ? 2_000 : 20_000;
        try (Arena arena = Arena.ofConfined(); PinnedAllocator allocator = setup.allocators().get();
             Backend backend = setup.identity().load(model);
             Engine engine = backend.createEngine(Models.gpuInstance(model, 0)))
        {
            final MemorySegment input = allocator.allocate(64, arena);
            final MemorySegment output = allocator.allocate(64, arena);
            for (int i = 0; i < 16; i++)
            {
                input.setAtIndex(ValueLayout.JAVA_FLOAT, i, i);
            }
            final FakeBatch batch = new FakeBatch(config, 1)
                .input("INPUT0", DataType.FP32, new long[] {1, 16}, input.asSlice(0, 64))
                .outputInto("OUTPUT0", output);
            for (int i = 0; i < warmup; i++)
            {
                engine.execute(batch);
            }
            final long[] nanos = new long[measured];
            for (int i = 0; i < measured; i++)
            {
                final long begin = System.nanoTime();
                engine.execute(batch);
                nanos[i] = System.nanoTime() - begin;
            }
            if (output.getAtIndex(ValueLayout.JAVA_FLOAT, 15) != 15f)
            {
                throw new AssertionError("cuda_identity returned " + output.getAtIndex(ValueLayout.JAVA_FLOAT, 15));
            }
            Arrays.sort(nanos);
            row("identity_b1_p50", format(nanos[measured / 2] / 1000.0), "us",
                "cuda_identity execute(), 1 row of 16 FP32, pinned host memory: H2D + D2D + D2H + wait");
            row("identity_b1_p99", format(nanos[(int) (measured * 0.99)] / 1000.0), "us", measured + " executions");
        }
    }

    /** cublas_mlp requests per second: batch-1 execution versus dynamic batching, same clients, same instances. */
    private static void batchingThroughput(final Setup setup, final boolean quick) throws Exception
    {
        final int concurrency = 32;
        final int instances = 2;
        final int width = setup.mlpWidth();
        final ModelConfig config = TestModels.config("""
            name: "mlp" backend: "cublas_mlp" max_batch_size: %d
            input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ %d ] } ]
            output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ %d ] } ]
            parameters { key: "layers" value { string_value: "%s" } }
            """.formatted(concurrency, width, width, setup.mlpLayers()));
        final ModelContext model = TestModels.context(config, null);
        final long millis = quick ? 1_000 : 5_000;
        try (Backend backend = setup.mlp().load(model))
        {
            final Result single = closedLoop(setup, backend, model, config, concurrency, instances, 1, millis);
            final Result dynamic = closedLoop(setup, backend, model, config, concurrency, instances, concurrency,
                millis);
            row("mlp_batch1_throughput", format(single.requestsPerSecond()), "req/s",
                concurrency + " clients, " + instances + " instances, every request executed alone");
            row("mlp_dynamic_throughput", format(dynamic.requestsPerSecond()), "req/s",
                String.format(Locale.ROOT, "same load, instances take all queued requests (up to %d): mean batch "
                    + "%.1f, %.1fx batch-1", concurrency, dynamic.meanBatch(),
                    dynamic.requestsPerSecond() / single.requestsPerSecond()));
            row("mlp_dynamic_latency_mean", format(dynamic.meanLatencyMicros() / 1000.0), "ms",
                String.format(Locale.ROOT, "batch-1: %.2f ms", single.meanLatencyMicros() / 1000.0));
        }
    }

    private record Result(long requests, long batches, double seconds, double meanLatencyMicros)
    {
        double requestsPerSecond()
        {
            return requests / seconds;
        }

        double meanBatch()
        {
            return batches == 0 ? 0 : (double) requests / batches;
        }
    }

    /** A client's one outstanding request: its row and the latch its instance opens when the row is done. */
    private static final class Request
    {
        final float[] row;
        final float[] result;
        volatile CountDownLatch done;
        long submitted;

        Request(final int width)
        {
            row = new float[width];
            result = new float[width];
        }
    }

    private static Result closedLoop(final Setup setup, final Backend backend, final ModelContext model,
        final ModelConfig config, final int clients, final int instances, final int maxBatch, final long millis)
        throws Exception
    {
        final int width = setup.mlpWidth();
        final BlockingQueue<Request> queue = new ArrayBlockingQueue<>(clients);
        final AtomicBoolean running = new AtomicBoolean(true);
        final AtomicLong requests = new AtomicLong();
        final AtomicLong batches = new AtomicLong();
        final AtomicLong latencyNanos = new AtomicLong();
        final List<Thread> threads = new ArrayList<>();
        final List<Engine> engines = new ArrayList<>();
        final List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        try (Arena arena = Arena.ofShared(); PinnedAllocator allocator = setup.allocators().get())
        {
            for (int i = 0; i < instances; i++)
            {
                final Engine engine = backend.createEngine(Models.gpuInstance(model, i));
                engines.add(engine);
                final MemorySegment input = allocator.allocate((long) maxBatch * width * Float.BYTES, arena);
                final MemorySegment output = allocator.allocate((long) maxBatch * width * Float.BYTES, arena);
                final FakeBatch batch = new FakeBatch(config, maxBatch)
                    .input(config.getInput(0).getName(), DataType.FP32, new long[] {maxBatch, width}, input)
                    .outputInto(config.getOutput(0).getName(), output);
                threads.add(Thread.ofPlatform().name("instance-" + i).start(() ->
                {
                    final Request[] taken = new Request[maxBatch];
                    try
                    {
                        while (running.get())
                        {
                            final Request first = queue.poll(10, TimeUnit.MILLISECONDS);
                            if (first == null)
                            {
                                continue;
                            }
                            taken[0] = first;
                            int count = 1;
                            while (count < maxBatch)
                            {
                                final Request next = queue.poll();
                                if (next == null)
                                {
                                    break;
                                }
                                taken[count++] = next;
                            }
                            for (int r = 0; r < count; r++)
                            {
                                MemorySegment.copy(taken[r].row, 0, input, ValueLayout.JAVA_FLOAT, (long) r * width,
                                    width);
                            }
                            engine.execute(batch.rows(count));
                            batches.incrementAndGet();
                            final long now = System.nanoTime();
                            for (int r = 0; r < count; r++)
                            {
                                MemorySegment.copy(output, ValueLayout.JAVA_FLOAT, (long) r * width, taken[r].result,
                                    0, width);
                                latencyNanos.addAndGet(now - taken[r].submitted);
                                taken[r].done.countDown();
                            }
                        }
                    }
                    catch (final Throwable failure)
                    {
                        failures.add(failure);
                        running.set(false);
                    }
                }));
            }
            final long start = System.nanoTime();
            for (int c = 0; c < clients; c++)
            {
                final long seed = c;
                threads.add(Thread.ofPlatform().name("client-" + c).start(() ->
                {
                    final Request request = new Request(width);
                    final java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
                    try
                    {
                        while (running.get())
                        {
                            for (int i = 0; i < request.row.length; i++)
                            {
                                request.row[i] = (float) random.nextDouble();
                            }
                            request.done = new CountDownLatch(1);
                            request.submitted = System.nanoTime();
                            queue.put(request);
                            while (!request.done.await(10, TimeUnit.MILLISECONDS))
                            {
                                if (!running.get())
                                {
                                    return;
                                }
                            }
                            requests.incrementAndGet();
                        }
                    }
                    catch (final InterruptedException stop)
                    {
                        Thread.currentThread().interrupt();
                    }
                }));
            }
            Thread.sleep(millis);
            running.set(false);
            final double seconds = (System.nanoTime() - start) / 1e9;
            for (final Thread thread : threads)
            {
                thread.join(TimeUnit.SECONDS.toMillis(30));
            }
            for (final Engine engine : engines)
            {
                engine.close();
            }
            if (!failures.isEmpty())
            {
                throw new IllegalStateException("an instance failed", failures.getFirst());
            }
            final long done = requests.get();
            return new Result(done, batches.get(), seconds, done == 0 ? 0 : latencyNanos.get() / 1000.0 / done);
        }
    }

    private static String format(final double value)
    {
        return String.format(Locale.ROOT, value >= 100 ? "%.0f" : "%.2f", value);
    }

    private static void row(final String name, final String value, final String unit, final String detail)
    {
        ROWS.add(new String[] {name, value, unit, detail});
        System.out.println("GPUBENCH | " + name + " | " + value + " | " + unit + " | " + detail);
    }

    private static void printTable()
    {
        final int[] widths = new int[3];
        for (final String[] r : ROWS)
        {
            for (int i = 0; i < 3; i++)
            {
                widths[i] = Math.max(widths[i], r[i].length());
            }
        }
        System.out.println();
        System.out.println("Ingot GPU measurements");
        for (final String[] r : ROWS)
        {
            System.out.printf("  %-" + widths[0] + "s  %" + widths[1] + "s %-" + widths[2] + "s  %s%n", r[0], r[1],
                r[2], r[3]);
        }
    }
}
