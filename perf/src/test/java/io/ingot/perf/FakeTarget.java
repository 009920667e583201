package io.ingot.perf;

import io.ingot.tensor.DataType;
import io.ingot.api.TensorMetadata;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A target answering every request after about a millisecond, with counters that say each execution ran two
 * inferences, or failing every request.
 */
final class FakeTarget implements LoadTarget
{
    private final AtomicLong calls = new AtomicLong();
    private final String error;
    private volatile boolean closed;

    /**
     * @param error {@code null} to succeed, else the error every request gets
     */
    FakeTarget(final String error)
    {
        this.error = error;
    }

    @Override
    public String describe()
    {
        return "fake";
    }

    @Override
    public ModelInfo modelInfo()
    {
        return new ModelInfo(8, List.of(new TensorMetadata("x", DataType.FP32, List.of(-1L, 4L))), List.of("y"));
    }

    @Override
    public void prepare(final RequestInputs inputs)
    {
    }

    @Override
    public LoadClient newClient()
    {
        return new LoadClient()
        {
            @Override
            public String call() throws InterruptedException
            {
                Thread.sleep(1);
                calls.incrementAndGet();
                return error;
            }

            @Override
            public void send(final Sink sink)
            {
                calls.incrementAndGet();
                sink.completed(error);
            }
        };
    }

    @Override
    public ServerCounters counters()
    {
        final long n = calls.get();
        return new ServerCounters(2 * n, n, n, 1000 * n, 100 * n, 0, 800 * n, 0);
    }

    @Override
    public void close()
    {
        closed = true;
    }

    boolean isClosed()
    {
        return closed;
    }

    long calls()
    {
        return calls.get();
    }
}
