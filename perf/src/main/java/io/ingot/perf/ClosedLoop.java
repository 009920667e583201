package io.ingot.perf;

import org.HdrHistogram.Recorder;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * perf_analyzer's concurrency mode: N workers, each with one request always in flight — send, wait for the
 * response, send again. Latency is send to response.
 */
final class ClosedLoop implements LoadDriver
{
    private static final long JOIN_MS = 30_000;

    private final LoadTarget target;
    private final int concurrency;
    private final Recorder recorder;
    private final ErrorLog errors;
    private final List<Thread> workers = new ArrayList<>();
    private volatile boolean running;

    /**
     * @param target      where requests go
     * @param concurrency requests in flight
     * @param recorder    receives latencies
     * @param errors      receives failures
     */
    ClosedLoop(final LoadTarget target, final int concurrency, final Recorder recorder, final ErrorLog errors)
    {
        this.target = target;
        this.concurrency = concurrency;
        this.recorder = recorder;
        this.errors = errors;
    }

    @Override
    public void start()
    {
        // Every client first: a target that cannot make one more (no free IPC slot) fails before any load starts.
        final List<LoadClient> clients = LoadClients.open(target, concurrency);
        running = true;
        for (int i = 0; i < concurrency; i++)
        {
            final LoadClient client = clients.get(i);
            workers.add(Thread.ofPlatform().name("perf-worker-" + i).daemon(true).start(() -> work(client)));
        }
    }

    private void work(final LoadClient client)
    {
        try (client)
        {
            while (running)
            {
                final long start = System.nanoTime();
                final String error = client.call();
                final long end = System.nanoTime();
                if (error == null)
                {
                    recorder.recordValue(end - start);
                }
                else
                {
                    errors.record(error);
                }
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        catch (final RuntimeException ex)
        {
            errors.record(ex.toString());
        }
    }

    @Override
    public void stop()
    {
        running = false;
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(JOIN_MS);
        for (final Thread worker : workers)
        {
            try
            {
                worker.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return;
            }
        }
        workers.clear();
    }

    @Override
    public Recorder latencies()
    {
        return recorder;
    }

    @Override
    public long takeDelayed()
    {
        return 0;
    }
}
