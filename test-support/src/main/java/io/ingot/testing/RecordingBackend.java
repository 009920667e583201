package io.ingot.testing;

import io.ingot.backend.Backend;
import io.ingot.backend.BackendFactory;
import io.ingot.backend.Batch;
import io.ingot.backend.BatchInput;
import io.ingot.backend.Engine;
import io.ingot.backend.ModelContext;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A test double of a backend ({@code backend: "recording"}): an INT32 identity engine that records the rows of every
 * batch it runs, blocks on a gate when a row holds {@link #GATE}, and throws when a row holds {@link #FAIL}. The first
 * input's rows carry each request's tag, so a test can read batch composition back; configuration parameter
 * {@code execute_us} makes every execution take that long, {@code any_thread: "true"} makes the engine say it
 * {@link Engine#runsOnAnyThread() runs on any thread}, and a version directory holding a file named
 * {@link #FAIL_LOAD} fails that version's load with an {@link IllegalStateException}, as does every load while
 * {@link #failLoads} is set (a failure from outside the repository, which a poll does not see change).
 *
 * <p>What it records belongs to this instance: a test creates its own and gives it to the core with
 * {@link io.ingot.api.CoreOptions.Builder#backend}, so tests that run at the same time never see each other's
 * batches. Thread-safe: engines of several instances record concurrently.
 */
public final class RecordingBackend implements BackendFactory
{
    /** The backend name configurations use. */
    public static final String NAME = "recording";
    /** A row value that makes the execution wait until {@link Recorder#openGate()}. */
    public static final int GATE = -1;
    /** A row value that makes the execution throw. */
    public static final int FAIL = -2;
    /** A file that, in a version directory, makes that version fail to load. */
    public static final String FAIL_LOAD = "fail-load";

    private final ConcurrentHashMap<String, Recorder> recorders = new ConcurrentHashMap<>();
    private volatile String loadFailure;

    /** What one model's engines saw. Thread-safe. */
    public static final class Recorder
    {
        /** Rows of each executed batch, in execution order. */
        public final List<List<Integer>> batches = new CopyOnWriteArrayList<>();
        /** Address of the first input's memory in each execution, and whether it was native memory. */
        public final List<long[]> inputMemory = new CopyOnWriteArrayList<>();
        /** Start and end {@link System#nanoTime()} of each execution, in execution order. */
        public final List<long[]> spans = new CopyOnWriteArrayList<>();
        /** Name of the thread that ran each execution, in execution order. */
        public final List<String> threads = new CopyOnWriteArrayList<>();
        /** Name of the instance that ran each execution, in execution order. */
        public final List<String> instances = new CopyOnWriteArrayList<>();
        private final CountDownLatch gate = new CountDownLatch(1);
        private final CountDownLatch gateReached = new CountDownLatch(1);

        /** Lets gated executions continue. */
        public void openGate()
        {
            gate.countDown();
        }

        /**
         * Waits until an execution is blocked at the gate.
         *
         * @throws InterruptedException when interrupted
         */
        public void awaitGateReached() throws InterruptedException
        {
            if (!gateReached.await(30, TimeUnit.SECONDS))
            {
                throw new AssertionError("no execution reached the gate within 30 s");
            }
        }

        /** @return the sizes of the batches executed so far, gate batches included. */
        public List<Integer> batchSizes()
        {
            final List<Integer> sizes = new ArrayList<>();
            for (final List<Integer> batch : batches)
            {
                sizes.add(batch.size());
            }
            return sizes;
        }
    }

    /**
     * @param model model name
     * @return what that model's engines recorded (empty until the model runs a batch)
     */
    public Recorder recorder(final String model)
    {
        return recorders.computeIfAbsent(model, key -> new Recorder());
    }

    @Override
    public String name()
    {
        return NAME;
    }

    /**
     * @param reason the message every later load fails with, or {@code null} to let loads succeed again
     */
    public void failLoads(final String reason)
    {
        loadFailure = reason;
    }

    @Override
    public Backend load(final ModelContext context)
    {
        final String failure = loadFailure;
        if (failure != null)
        {
            throw new IllegalStateException(failure);
        }
        if (context.versionDirectory() != null && Files.exists(context.versionDirectory().resolve(FAIL_LOAD)))
        {
            throw new IllegalStateException("injected load failure of version " + context.version());
        }
        final Recorder recorder = recorder(context.modelName());
        final long delayNs = Long.parseLong(context.parameter("execute_us", "0")) * 1000;
        final boolean anyThread = Boolean.parseBoolean(context.parameter("any_thread", "false"));
        return instance -> new RecordingEngine(recorder, delayNs, instance.name(), anyThread);
    }

    /** Records, gates, fails, then copies each input to the output of the same index. */
    private static final class RecordingEngine implements Engine
    {
        private final Recorder recorder;
        private final long delayNs;
        private final String instance;
        private final boolean anyThread;

        RecordingEngine(final Recorder recorder, final long delayNs, final String instance, final boolean anyThread)
        {
            this.recorder = recorder;
            this.delayNs = delayNs;
            this.instance = instance;
            this.anyThread = anyThread;
        }

        @Override
        public boolean runsOnAnyThread()
        {
            return anyThread;
        }

        @Override
        public void execute(final Batch batch) throws Exception
        {
            final long start = System.nanoTime();
            final BatchInput input = batch.input(0);
            final MemorySegment data = input.data();
            final List<Integer> rows = new ArrayList<>();
            final long elements = data.byteSize() / 4;
            final long perRow = batch.config().getMaxBatchSize() > 0 ? elements / batch.batchSize() : elements;
            for (long e = 0; e < elements; e += Math.max(1, perRow))
            {
                rows.add(data.get(ValueLayout.JAVA_INT_UNALIGNED, e * 4));
            }
            recorder.batches.add(List.copyOf(rows));
            recorder.threads.add(Thread.currentThread().getName());
            recorder.instances.add(instance);
            recorder.inputMemory.add(new long[] {data.isNative() ? data.address() : 0, data.isNative() ? 1 : 0});
            if (rows.contains(GATE))
            {
                recorder.gateReached.countDown();
                if (!recorder.gate.await(60, TimeUnit.SECONDS))
                {
                    throw new IllegalStateException("gate was never opened");
                }
            }
            if (rows.contains(FAIL))
            {
                throw new IllegalStateException("injected failure");
            }
            if (delayNs > 0)
            {
                Thread.sleep(delayNs / 1_000_000, (int)(delayNs % 1_000_000));
            }
            for (int o = 0; o < batch.config().getOutputCount(); o++)
            {
                final String name = batch.config().getOutput(o).getName();
                if (batch.isOutputRequested(name))
                {
                    final BatchInput source = batch.input(o);
                    final MemorySegment out = batch.allocateOutput(name, source.shape());
                    MemorySegment.copy(source.data(), 0, out, 0, source.data().byteSize());
                }
            }
            recorder.spans.add(new long[] {start, System.nanoTime()});
        }
    }
}
