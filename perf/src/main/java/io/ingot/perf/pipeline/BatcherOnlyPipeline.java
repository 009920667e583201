package io.ingot.perf.pipeline;

import io.ingot.agent.Agent;
import io.ingot.agent.AgentRunner;
import io.ingot.agent.ThreadBell;
import io.ingot.api.IdleMode;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ResponseListener;
import io.ingot.config.proto.ModelConfig;
import io.ingot.dispatch.IdleStrategies;
import io.ingot.dispatch.ModelScheduler;
import io.ingot.dispatch.Seat;
import io.ingot.dispatch.Timekeeper;
import io.ingot.scheduler.BatchPolicy;
import io.ingot.scheduler.DynamicBatchPolicy;
import io.ingot.scheduler.EndedRequests;
import io.ingot.scheduler.FormedBatch;
import io.ingot.scheduler.LevelAdmission;
import io.ingot.time.NanoClock;
import io.ingot.scheduler.PendingRequest;
import io.ingot.scheduler.SchedulerSettings;
import io.ingot.scheduler.ShapeKey;
import io.ingot.tensor.DataType;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Ingot's intake alone, the counterpart of the DJL-style and Triton-style batchers without their engine: the model
 * scheduler a core builds for the identity model (the intake ring, the batching role, Triton's dynamic batch policy)
 * in front of one instance whose duty cycle is {@code InstanceAgent}'s — take the role, drain, decide, hand the role
 * off — but which executes nothing: it completes each request of a dispatched batch at once. What accepting requests
 * and forming batches costs, without validation, assembly, engine or responses (those are the whole pipeline's,
 * {@link IngotPipeline}).
 */
final class BatcherOnlyPipeline implements Pipeline
{
    private static final int RING_SIZE = 1024;

    private final ModelScheduler scheduler;
    private final NoOpInstance instance;
    private final AgentRunner runner;
    private final String model;
    private final ShapeKey shapeKey;

    /** A slot's request bookkeeping and the slot it completes. */
    private static final class Token implements ResponseListener
    {
        final PendingRequest pending = new PendingRequest();
        PipelineSlot slot;

        @Override
        public void onResponse(final InferenceResponse response)
        {
            throw new IllegalStateException("the batcher-only pipeline sends no responses");
        }
    }

    /** One instance's duty cycle with nothing to execute. */
    private static final class NoOpInstance implements Agent
    {
        private static final int HOLDER = 1;

        final Seat seat = new Seat();
        private final ModelScheduler scheduler;
        private final FormedBatch batch;
        private final EndedRequests ended = new EndedRequests();
        // One writer (the instance's thread); read by monitoring.
        private volatile long requests;
        private volatile long executions;
        private volatile boolean done;

        NoOpInstance(final ModelScheduler scheduler, final int maxBatch)
        {
            this.scheduler = scheduler;
            this.batch = new FormedBatch(maxBatch);
        }

        @Override
        public int doWork()
        {
            if (!scheduler.tryAcquireRole(HOLDER))
            {
                return 0;
            }
            if (scheduler.isStopping())
            {
                // As InstanceAgent does at the stop: every queued request is answered before the thread ends.
                scheduler.drainForStop(ended);
                scheduler.releaseRole(HOLDER);
                failEnded();
                done = true;
                return 1;
            }
            final int status = scheduler.decide(0, batch, ended);
            if (status == BatchPolicy.DISPATCH)
            {
                scheduler.handOff(HOLDER);
                for (int i = 0; i < batch.count(); i++)
                {
                    ((Token)batch.get(i).listener).slot.complete();
                }
                requests += batch.count();
                executions++;
                batch.clear();
                return 1;
            }
            failEnded();
            scheduler.watch(seat.bell());
            return 0;
        }

        private void failEnded()
        {
            for (int i = 0; i < ended.count(); i++)
            {
                ((Token)ended.request(i).listener).slot.fail("ended by the scheduler: " + ended.ending(i));
            }
            ended.clear();
        }

        boolean hasWork()
        {
            return scheduler.isStopping()
                || (scheduler.holdsRole(HOLDER) ? scheduler.hasNews() : scheduler.isRoleFree());
        }

        @Override
        public long wakeDeadlineNs()
        {
            return NO_DEADLINE;
        }

        @Override
        public boolean isDone()
        {
            return done;
        }

        @Override
        public String roleName()
        {
            return "batcher-only-instance";
        }

        @Override
        public void onClose()
        {
        }
    }

    /**
     * @param config   the identity model's configuration (dynamic batching, no queue delay)
     * @param maxBatch the most requests per batch
     * @param idle     how the instance waits for work
     */
    BatcherOnlyPipeline(final ModelConfig config, final int maxBatch, final IdleMode idle)
    {
        this.model = config.getName();
        final SchedulerSettings settings = SchedulerSettings.of(config);
        this.shapeKey = new ShapeKey(settings, true);
        final LevelAdmission admission = new LevelAdmission(settings);
        scheduler = new ModelScheduler(model, settings, new DynamicBatchPolicy(settings, true, admission), admission,
            RING_SIZE, NanoClock.SYSTEM, new Timekeeper(new ThreadBell(), NanoClock.SYSTEM));
        instance = new NoOpInstance(scheduler, maxBatch);
        scheduler.seat(new Seat[] {instance.seat});
        runner = new AgentRunner(instance, IdleStrategies.of(idle, instance.seat.bell(), instance::hasWork), true);
        runner.start();
    }

    @Override
    public String name()
    {
        return "ingot";
    }

    @Override
    public PipelineSlot newSlot(final Arena arena)
    {
        final Token token = new Token();
        final MemorySegment input = arena.allocate(Float.BYTES, 64);
        // The identity model's one input and output, bound as the core's validator binds them, so that the policy
        // compares shapes (the input's dimension is -1) as it does for real requests.
        token.pending.request = new InferenceRequest(model).addInput("INPUT0", DataType.FP32, new long[] {1, 1},
            input);
        token.pending.inputIndexByConfig[0] = 0;
        token.pending.presentInputs = 1;
        token.pending.requestedOutputs = 1;
        token.pending.listener = token;
        token.pending.batchSize = 1;
        token.pending.shapeKey = shapeKey.of(token.pending.request, token.pending.inputIndexByConfig);
        token.slot = new PipelineSlot(input, input, token);
        return token.slot;
    }

    @Override
    public void submit(final PipelineSlot slot)
    {
        scheduler.submit(((Token)slot.attachment()).pending);
    }

    @Override
    public long requests()
    {
        return instance.requests;
    }

    @Override
    public long executions()
    {
        return instance.executions;
    }

    @Override
    public void close()
    {
        // The instance ends every queued request (failing its slot) and then stops, as a core's instances do.
        scheduler.stop();
        runner.join();
    }
}
