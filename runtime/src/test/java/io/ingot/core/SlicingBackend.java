package io.ingot.core;

import io.ingot.backend.Backend;
import io.ingot.backend.Batch;
import io.ingot.backend.BackendFactory;
import io.ingot.backend.BatchInput;
import io.ingot.backend.Engine;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.testing.TestModels;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * A test backend with two outputs that records where it wrote them: {@code OUTPUT0 = INPUT0} and
 * {@code OUTPUT1 = INPUT0 + 1000} (INT32, one element per row), each allocated only when requested. A row holding
 * {@link #GATE} waits until {@link #openGate()}; one holding {@link #FAIL} fails the run after both outputs were
 * allocated and written; one holding {@link #SKIP1} makes the run leave {@code OUTPUT1} unallocated.
 */
final class SlicingBackend implements BackendFactory
{
    static final String NAME = "slicing";
    static final int GATE = -1;
    static final int FAIL = -2;
    static final int SKIP1 = -3;

    /** One run: its rows' values and the address of each output's memory (0 when not allocated). */
    record Run(List<Integer> rows, long output0, long output1)
    {
    }

    final List<Run> runs = new CopyOnWriteArrayList<>();
    private final Semaphore gateReached = new Semaphore(0);
    private final Semaphore gate = new Semaphore(0);

    /**
     * @param name       model name
     * @param maxBatch   max_batch_size
     * @param instances  instance count
     * @param scheduling extra configuration text
     * @return a configuration served by this backend
     */
    static ModelConfig model(final String name, final int maxBatch, final int instances, final String scheduling)
    {
        return TestModels.config("name: '" + name + "' backend: '" + NAME + "' max_batch_size: " + maxBatch
            + " input [{ name: 'INPUT0' data_type: TYPE_INT32 dims: [1] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_INT32 dims: [1] },"
            + " { name: 'OUTPUT1' data_type: TYPE_INT32 dims: [1] }]"
            + " instance_group [{ kind: KIND_CPU count: " + instances + " }] " + scheduling);
    }

    void awaitGateReached() throws InterruptedException
    {
        if (!gateReached.tryAcquire(30, TimeUnit.SECONDS))
        {
            throw new AssertionError("no run reached the gate within 30 s");
        }
    }

    void openGate()
    {
        gate.release();
    }

    /** @return the last run */
    Run last()
    {
        return runs.getLast();
    }

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public Backend load(final ModelContext context)
    {
        return instance -> new Engine()
        {
            @Override
            public void execute(final Batch batch) throws Exception
            {
                final BatchInput input = batch.input("INPUT0");
                final MemorySegment data = input.data();
                final int rows = (int)(data.byteSize() / 4);
                final List<Integer> values = new java.util.ArrayList<>();
                for (int r = 0; r < rows; r++)
                {
                    values.add(data.getAtIndex(ValueLayout.JAVA_INT, r));
                }
                if (values.contains(GATE))
                {
                    gateReached.release();
                    if (!gate.tryAcquire(60, TimeUnit.SECONDS))
                    {
                        throw new IllegalStateException("gate was never opened");
                    }
                }
                final long[] shape = {batch.batchSize(), 1};
                long address0 = 0;
                long address1 = 0;
                if (batch.isOutputRequested("OUTPUT0"))
                {
                    final MemorySegment out = batch.allocateOutput("OUTPUT0", shape);
                    MemorySegment.copy(data, 0, out, 0, data.byteSize());
                    address0 = out.address();
                }
                if (batch.isOutputRequested("OUTPUT1") && !values.contains(SKIP1))
                {
                    final MemorySegment out = batch.allocateOutput("OUTPUT1", shape);
                    for (int r = 0; r < rows; r++)
                    {
                        out.setAtIndex(ValueLayout.JAVA_INT, r, values.get(r) + 1000);
                    }
                    address1 = out.address();
                }
                runs.add(new Run(List.copyOf(values), address0, address1));
                if (values.contains(FAIL))
                {
                    throw new IllegalStateException("injected failure after the outputs were written");
                }
            }
        };
    }
}
