package io.ingot.perf;

import org.HdrHistogram.Recorder;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * perf_analyzer's request-rate mode: requests start on a schedule — the gaps of an {@link Arrivals} process
 * (constant, Poisson, bursty or a replayed trace) — whatever the responses do. At most {@code maxOutstanding} are
 * in flight; when all are, the next one starts late and is counted as delayed. Latency is measured from the
 * scheduled start, so a server that falls behind shows it in the latency rather than hiding it (no coordinated
 * omission).
 */
public final class OpenLoop implements LoadDriver
{
    /** Below this much time to wait, the scheduler spins rather than parks. */
    private static final long SPIN_NS = 50_000;
    private static final long DRAIN_MS = 30_000;

    private final LoadTarget target;
    private final Arrivals.Gaps gaps;
    private final Recorder recorder;
    private final ErrorLog errors;
    private final ArrayBlockingQueue<Slot> free;
    private final int slots;
    private final LongAdder delayed = new LongAdder();
    private Thread scheduler;
    private volatile boolean running;

    /**
     * @param target         where requests go
     * @param gaps           the arrival process's gaps at this level's rate
     * @param maxOutstanding the most requests in flight
     * @param recorder       receives latencies
     * @param errors         receives failures
     */
    OpenLoop(final LoadTarget target, final Arrivals.Gaps gaps, final int maxOutstanding, final Recorder recorder,
        final ErrorLog errors)
    {
        this.target = target;
        this.gaps = gaps;
        this.recorder = recorder;
        this.errors = errors;
        this.slots = maxOutstanding;
        this.free = new ArrayBlockingQueue<>(maxOutstanding);
    }

    /** A client lent to one scheduled request. */
    private final class Slot implements LoadClient.Sink
    {
        final LoadClient client;
        long scheduledNs;

        Slot(final LoadClient client)
        {
            this.client = client;
        }

        @Override
        public void completed(final String error)
        {
            if (error == null)
            {
                recorder.recordValue(Math.max(0, System.nanoTime() - scheduledNs));
            }
            else
            {
                errors.record(error);
            }
            free.offer(this);
        }
    }

    @Override
    public void start()
    {
        for (final LoadClient client : LoadClients.open(target, slots))
        {
            free.offer(new Slot(client));
        }
        running = true;
        scheduler = Thread.ofPlatform().name("perf-scheduler").daemon(true).start(this::schedule);
    }

    private void schedule()
    {
        long next = System.nanoTime();
        try
        {
            while (running)
            {
                next += gaps.nextNanos();
                waitUntil(next);
                if (!running)
                {
                    return;
                }
                Slot slot = free.poll();
                if (slot == null)
                {
                    delayed.increment();
                    slot = free.take();
                }
                slot.scheduledNs = next;
                slot.client.send(slot);
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private void waitUntil(final long deadline)
    {
        long remaining;
        while (running && (remaining = deadline - System.nanoTime()) > 0)
        {
            if (remaining > SPIN_NS)
            {
                LockSupport.parkNanos(remaining - SPIN_NS);
            }
            else
            {
                Thread.onSpinWait();
            }
        }
    }

    @Override
    public void stop()
    {
        running = false;
        if (scheduler != null)
        {
            scheduler.interrupt();
            try
            {
                scheduler.join(DRAIN_MS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return;
            }
        }
        // Wait for the requests in flight, so that none of them outlives the target.
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_MS);
        while (free.size() < slots && System.nanoTime() < deadline)
        {
            LockSupport.parkNanos(1_000_000);
        }
        Slot slot;
        while ((slot = free.poll()) != null)
        {
            slot.client.close();
        }
    }

    @Override
    public Recorder latencies()
    {
        return recorder;
    }

    @Override
    public long takeDelayed()
    {
        return delayed.sumThenReset();
    }
}
