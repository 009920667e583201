package io.ingot.benchmarks.jmh;

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
import java.util.concurrent.TimeUnit;

/**
 * Assembling a batch of B requests of S bytes each into pinned staging, against the memcpy ceiling of
 * one {@link MemorySegment#copy} of B·S bytes between two page-aligned native segments.
 *
 * <ul>
 *   <li>{@link #memcpyCeiling}: the ceiling;</li>
 *   <li>{@link #copyLoop}: the copy loop of the runtime's {@code AssembledBatch.assemble} (package-private there),
 *       reproduced statement for statement: sum the sizes, take a slice of the staging buffer, copy each request's
 *       bytes at its offset. The runtime passes a single native request through without any copy; this loop copies
 *       for B = 1 too, to show the per-request cost.</li>
 * </ul>
 * The runtime's own assembly time per batch is its {@code compute_input} statistic, which {@code ingot perf} reports
 * beside its latencies.
 * GB/s = B·S / time per operation.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsPrepend = {"--enable-native-access=ALL-UNNAMED", "-Xmx1g"})
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

    /** Allocates the requests and the staging. */
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
    }

    /** Frees the memory. */
    @TearDown(Level.Trial)
    public void free()
    {
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

}
