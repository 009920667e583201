package io.ingot.benchmarks.jmh;

import io.ingot.tensor.DataType;
import io.ingot.perf.support.BenchModels;
import io.ingot.perf.support.ReusingResponseAllocator;
import io.ingot.device.PinnedAllocator;
import io.ingot.device.PinnedAllocators;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Issue #6 (b): assembling a batch of B requests of S bytes each into pinned staging, against the memcpy ceiling of
 * one {@link MemorySegment#copy} of B·S bytes between two page-aligned native segments.
 *
 * <ul>
 *   <li>{@link #memcpyCeiling}: the ceiling;</li>
 *   <li>{@link #copyLoop}: the copy loop of the runtime's {@code AssembledBatch.assemble} (package-private there),
 *       reproduced statement for statement: sum the sizes, take a slice of the staging buffer, copy each request's
 *       bytes at its offset. The runtime passes a single native request through without any copy; this loop copies
 *       for B = 1 too, to show the per-request cost;</li>
 *   <li>{@link #realInstance}: the runtime's own path: a real {@code ModelInstance} assembles the batch into staging
 *       from {@code PinnedAllocators.automatic()} (host memory here, {@code cudaHostAlloc} where a GPU is). The time
 *       per operation includes the hand-off to the instance thread and back; the assembly alone, as the runtime times
 *       it ({@code compute_input}), is printed at the end of each iteration as {@code [runtime assembly]}.</li>
 * </ul>
 * GB/s = B·S / time per operation.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsPrepend = {"--enable-native-access=ALL-UNNAMED", "--add-opens",
    "java.base/jdk.internal.misc=ALL-UNNAMED", "-Xmx1g"})
public class AssemblyBenchmark
{
    /** Requests per batch. */
    @Param({"1", "8", "64"})
    public int batch;

    /** Bytes per request: 64 B, 64 KiB, one 3×224×224 FP32 image. */
    @Param({"64", "65536", "602112"})
    public int size;

    private Arena arena;
    private MemorySegment[] requests;
    private MemorySegment ceilingSource;
    private MemorySegment ceilingTarget;
    private MemorySegment staging;
    private PinnedAllocator pinned;
    private ReusingResponseAllocator outputs;
    private InstanceDriver instance;

    /** Allocates the requests, the staging and the instance. */
    @Setup(Level.Trial)
    public void allocate()
    {
        arena = Arena.ofShared();
        pinned = PinnedAllocators.automatic();
        final long total = (long)batch * size;
        requests = new MemorySegment[batch];
        for (int r = 0; r < batch; r++)
        {
            requests[r] = arena.allocate(size, 64);
            requests[r].fill((byte)(r + 1));
        }
        ceilingSource = pinned.allocate(total, arena);
        ceilingSource.fill((byte)7);
        ceilingTarget = pinned.allocate(total, arena);
        staging = pinned.allocate(total, arena);
        outputs = new ReusingResponseAllocator(64, 4);
        instance = new InstanceDriver(BenchModels.bytes(64), requests, new long[] {1, size}, DataType.UINT8, pinned,
            outputs);
    }

    /** Prints the runtime's own assembly time, for the real-instance benchmark. */
    @TearDown(Level.Iteration)
    public void report()
    {
        final double ns = instance.assemblyNanosPerBatch(batch);
        if (!Double.isNaN(ns))
        {
            System.out.printf(Locale.ROOT, "%n[runtime assembly] batch=%d size=%d: %.1f ns per batch, %.2f GB/s%n",
                batch, size, ns, (double)batch * size / ns);
        }
    }

    /** Stops the instance and frees the memory. */
    @TearDown(Level.Trial)
    public void free()
    {
        instance.close();
        outputs.close();
        arena.close();
    }

    /**
     * The ceiling: one copy of B·S bytes.
     *
     * @return the target, so the copy is not dead code
     */
    @Benchmark
    public MemorySegment memcpyCeiling()
    {
        MemorySegment.copy(ceilingSource, 0, ceilingTarget, 0, ceilingTarget.byteSize());
        return ceilingTarget;
    }

    /**
     * The runtime's assembly loop, copied (see the class comment).
     *
     * @return the assembled staging slice
     */
    @Benchmark
    public MemorySegment copyLoop()
    {
        long total = 0;
        for (int r = 0; r < requests.length; r++)
        {
            total += requests[r].byteSize();
        }
        final MemorySegment assembled = staging.asSlice(0, total);
        long offset = 0;
        for (int r = 0; r < requests.length; r++)
        {
            final MemorySegment source = requests[r];
            MemorySegment.copy(source, 0, assembled, offset, source.byteSize());
            offset += source.byteSize();
        }
        return assembled;
    }

    /** One batch through a real instance: hand-off, assembly, engine, B responses. */
    @Benchmark
    public void realInstance()
    {
        instance.runBatch();
    }
}
