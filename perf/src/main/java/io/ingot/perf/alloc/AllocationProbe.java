package io.ingot.perf.alloc;

import io.ingot.api.CoreOptions;
import io.ingot.tensor.DataType;
import io.ingot.api.IdleMode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.perf.support.BenchModels;
import io.ingot.perf.support.Completion;
import io.ingot.perf.support.ReusingResponseAllocator;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs the in-process path of the overhead benchmark — the identity model, the callback API, one reused request and
 * listener per caller, a {@link ReusingResponseAllocator} — and reports the bytes each thread allocated per request
 * in steady state (after a warm-up), from the JVM's per-thread allocation counters.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.ingot.perf.alloc.AllocationProbe [elements] [callers]
 * [seconds]} (defaults 1, 1, 10).
 */
public final class AllocationProbe
{
    private AllocationProbe()
    {
    }

    /**
     * @param args elements per request, caller threads, measured seconds
     * @throws Exception when a caller fails
     */
    public static void main(final String[] args) throws Exception
    {
        final int elements = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        final int callers = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        final long seconds = args.length > 2 ? Long.parseLong(args[2]) : 10;
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().model(BenchModels.identity(8, 1))
                .idleMode(IdleMode.BLOCKING).build());
            ReusingResponseAllocator outputs = new ReusingResponseAllocator(4L * elements, 256);
            Arena arena = Arena.ofShared())
        {
            final AtomicLong requests = new AtomicLong();
            final long warmupEnd = System.nanoTime() + 5_000_000_000L;
            final AtomicBoolean running = new AtomicBoolean(true);
            final CountDownLatch warm = new CountDownLatch(callers);
            final CountDownLatch measured = new CountDownLatch(1);
            final List<Thread> workers = new ArrayList<>();
            for (int c = 0; c < callers; c++)
            {
                final MemorySegment input = arena.allocate(4L * elements, 64);
                final InferenceRequest request = new InferenceRequest("identity")
                    .addInput("INPUT0", DataType.FP32, new long[] {1, elements}, input).responseAllocator(outputs);
                final Completion completion = new Completion();
                workers.add(Thread.ofPlatform().name("caller-" + c).start(() ->
                {
                    boolean counted = false;
                    while (running.get())
                    {
                        completion.reset();
                        core.submit(request, completion);
                        completion.await();
                        if (counted)
                        {
                            requests.incrementAndGet();
                        }
                        else if (System.nanoTime() >= warmupEnd)
                        {
                            counted = true;
                            warm.countDown();
                            awaitQuietly(measured);
                        }
                    }
                }));
            }
            warm.await();
            final Map<String, Long> before = allocated(threads);
            final long first = requests.get();
            measured.countDown();
            Thread.sleep(seconds * 1000);
            // Read while the callers still run: a finished thread's counter can no longer be read.
            final long count = requests.get() - first;
            final Map<String, Long> after = allocated(threads);
            running.set(false);
            for (final Thread worker : workers)
            {
                worker.join();
            }
            System.out.printf(Locale.ROOT, "identity, %d element(s), %d caller(s): %d requests measured%n", elements,
                callers, count);
            long total = 0;
            for (final Map.Entry<String, Long> entry : after.entrySet())
            {
                final long bytes = entry.getValue() - before.getOrDefault(entry.getKey(), 0L);
                if (bytes > 0 && (entry.getKey().startsWith("ingot") || entry.getKey().startsWith("caller")))
                {
                    total += bytes;
                    System.out.printf(Locale.ROOT, "  %-40s %10.2f bytes/request%n", entry.getKey(),
                        (double)bytes / count);
                }
            }
            System.out.printf(Locale.ROOT, "  %-40s %10.2f bytes/request%n", "total (Ingot and callers)",
                (double)total / count);
        }
    }

    private static void awaitQuietly(final CountDownLatch latch)
    {
        try
        {
            latch.await();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** Bytes allocated so far by every live thread, by name (threads of one name summed). */
    private static Map<String, Long> allocated(final com.sun.management.ThreadMXBean threads)
    {
        final Map<String, Long> bytes = new TreeMap<>();
        for (final Thread thread : Thread.getAllStackTraces().keySet())
        {
            final long allocated = threads.getThreadAllocatedBytes(thread.threadId());
            if (allocated > 0)
            {
                bytes.merge(thread.getName(), allocated, Long::sum);
            }
        }
        return bytes;
    }
}
