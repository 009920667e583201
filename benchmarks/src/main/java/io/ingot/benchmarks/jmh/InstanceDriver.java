package io.ingot.benchmarks.jmh;

import io.ingot.api.BatchStatistics;
import io.ingot.tensor.DataType;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ResponseAllocator;
import io.ingot.api.ResponseAssembly;
import io.ingot.backend.Batch;
import io.ingot.backend.Engine;
import io.ingot.config.proto.ModelConfig;
import io.ingot.device.PinnedAllocator;
import io.ingot.instance.InstanceHost;
import io.ingot.instance.ModelInstance;
import io.ingot.scheduler.Payload;
import io.ingot.scheduler.PayloadQueue;
import io.ingot.scheduler.PendingRequest;
import io.ingot.stats.ModelStatsRecorder;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.function.Consumer;
import java.util.concurrent.locks.LockSupport;

/**
 * Drives one real {@link ModelInstance} without a batcher: the caller forms a payload of B requests, the instance
 * thread assembles their inputs into its pinned staging exactly as in a running core, runs an engine that only reads
 * the batch, and delivers B empty responses. The runtime times the assembly itself ({@code compute_input} of the
 * batch statistics), which is what {@link #assemblyNanosPerBatch(int)} reports.
 */
final class InstanceDriver implements InstanceHost, AutoCloseable
{
    private final ModelConfig config;
    private final PayloadQueue payloads;
    private final ModelStatsRecorder stats;
    private final ResponseAllocator allocator;
    private final ArrayDeque<InferenceResponse> responses = new ArrayDeque<>();
    private final Consumer<InferenceResponse> recycler = responses::offer;
    private final Thread thread;
    private final PendingRequest[] pending;
    private int outstanding;
    private volatile boolean done;
    private volatile Thread waiter;
    private volatile String failure;
    private long reportedCount;
    private long reportedNs;

    /**
     * @param config    the model (one input; batching)
     * @param inputs    one input per request of every batch, in order
     * @param shape     the shape of each request's input, batch dimension 1 included
     * @param type      the input's element type
     * @param staging   the staging allocator the instance uses
     * @param allocator the responses' output allocator
     */
    InstanceDriver(final ModelConfig config, final MemorySegment[] inputs, final long[] shape, final DataType type,
        final PinnedAllocator staging, final ResponseAllocator allocator)
    {
        this.config = config;
        this.allocator = allocator;
        this.stats = new ModelStatsRecorder(config.getMaxBatchSize());
        this.payloads = new PayloadQueue(1, true, config.getMaxBatchSize(), () ->
        {
        });
        pending = new PendingRequest[inputs.length];
        for (int r = 0; r < inputs.length; r++)
        {
            final PendingRequest request = new PendingRequest();
            request.request = new InferenceRequest(config.getName()).addInput(config.getInput(0).getName(), type,
                shape, inputs[r]);
            request.inputIndexByConfig[0] = 0;
            request.presentInputs = 1;
            request.batchSize = (int)shape[0];
            request.requestedOutputs = 0;
            pending[r] = request;
        }
        final ModelInstance instance = new ModelInstance(this, "bench_0", new ReadingEngine(), staging);
        thread = Thread.ofPlatform().name("bench-instance").daemon(true).start(instance);
    }

    /**
     * Sends one batch of every request through the instance and waits until each was answered.
     *
     * @throws IllegalStateException when the instance failed a request
     */
    void runBatch()
    {
        final Payload payload = payloads.acquire();
        final long now = System.nanoTime();
        for (final PendingRequest request : pending)
        {
            request.acceptedNs = now;
            payload.add(request);
        }
        outstanding = pending.length;
        done = false;
        payloads.enqueue(payload);
        for (int i = 0; i < 256 && !done; i++)
        {
            Thread.onSpinWait();
        }
        if (!done)
        {
            waiter = Thread.currentThread();
            while (!done)
            {
                LockSupport.park(this);
            }
            waiter = null;
        }
        if (failure != null)
        {
            throw new IllegalStateException(failure);
        }
    }

    /**
     * The runtime's own mean input-assembly time of the batches of one size since the previous call.
     *
     * @param batchSize a total batch size
     * @return nanoseconds per batch, or NaN when no batch of that size ran since the previous call
     */
    double assemblyNanosPerBatch(final int batchSize)
    {
        for (final BatchStatistics batch : stats.snapshot(config.getName(), "1").batchStats())
        {
            if (batch.batchSize() == batchSize)
            {
                final long count = batch.computeInput().count() - reportedCount;
                final long ns = batch.computeInput().ns() - reportedNs;
                reportedCount = batch.computeInput().count();
                reportedNs = batch.computeInput().ns();
                return count > 0 ? (double)ns / count : Double.NaN;
            }
        }
        return Double.NaN;
    }

    @Override
    public String modelName()
    {
        return config.getName();
    }

    @Override
    public long version()
    {
        return 1;
    }

    @Override
    public ModelConfig config()
    {
        return config;
    }

    @Override
    public PayloadQueue payloads()
    {
        return payloads;
    }

    @Override
    public ModelStatsRecorder stats()
    {
        return stats;
    }

    @Override
    public InferenceResponse openResponse(final PendingRequest request)
    {
        InferenceResponse response = responses.poll();
        if (response == null)
        {
            response = ResponseAssembly.newResponse(recycler);
        }
        ResponseAssembly.begin(response, request.request, config.getName(), 1);
        return response;
    }

    @Override
    public ResponseAllocator allocatorFor(final PendingRequest request)
    {
        return allocator;
    }

    @Override
    public void deliver(final PendingRequest request, final InferenceResponse response)
    {
        if (!response.isOk())
        {
            failure = response.error().getMessage();
        }
        response.close();
        if (--outstanding == 0)
        {
            done = true;
            final Thread caller = waiter;
            if (caller != null)
            {
                LockSupport.unpark(caller);
            }
        }
    }

    @Override
    public void close()
    {
        payloads.stopInstances();
        try
        {
            thread.join(10_000);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** Reads one byte of every input row, so the engine depends on the assembled memory without adding a copy. */
    private static final class ReadingEngine implements Engine
    {
        private long sink;

        @Override
        public void execute(final Batch batch)
        {
            final MemorySegment data = batch.input(0).data();
            sink += data.get(ValueLayout.JAVA_BYTE, data.byteSize() - 1);
        }

        @Override
        public boolean acceptsHeapInputs()
        {
            return true;
        }
    }
}
