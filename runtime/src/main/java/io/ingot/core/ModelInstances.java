package io.ingot.core;

import io.ingot.agent.AgentRunner;
import io.ingot.api.ErrorCode;
import io.ingot.api.IdleMode;
import io.ingot.api.InferenceException;
import io.ingot.backend.Backend;
import io.ingot.backend.Engine;
import io.ingot.backend.InstanceContext;
import io.ingot.backend.ModelContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInstanceGroup;
import io.ingot.config.proto.ModelRateLimiter;
import io.ingot.dispatch.IdleStrategies;
import io.ingot.dispatch.Seat;
import io.ingot.instance.EndedResponses;
import io.ingot.instance.HostedModel;
import io.ingot.instance.InstanceAgent;
import io.ingot.instance.InstanceThread;
import io.ingot.instance.ModelInstance;
import io.ingot.ratelimit.InstanceClaim;
import io.ingot.ratelimit.RateLimiter;
import io.ingot.warmup.WarmupPlan;
import io.ingot.warmup.WarmupRunner;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;

/**
 * The instances of one model version and their threads: one for each count of every non-passive instance group
 * (per listed GPU for a GPU group), each with the engine its backend creates, its {@link ModelInstance} (staging and
 * execution), its warm-up — run right after the engine is created and before any instance thread starts, holding the
 * instance's rate-limiter resources when the core rate-limits, as Triton does — and its {@link InstanceAgent} on an
 * {@link AgentRunner}. A failing engine or warm-up closes what was made and fails the construction. Made on the
 * loading thread; {@link #start} and {@link #stop} once each, from the version's lifecycle.
 */
final class ModelInstances
{
    private static final Logger LOG = System.getLogger(ModelInstances.class.getName());

    private final List<AgentRunner> runners = new ArrayList<>();
    /** The instances' places at the core's rate limiter; empty when it is off. */
    private final List<InstanceClaim> claims = new ArrayList<>();

    /**
     * One instance to make: what its engine is given, and its group's {@code rate_limiter}.
     *
     * @param context   the instance's context (name, index, kind, device)
     * @param rateLimit its group's {@code rate_limiter}
     */
    record Planned(InstanceContext context, ModelRateLimiter rateLimit)
    {
    }

    /**
     * @param context the model version
     * @return its instances, in Triton's order and with Triton's names ({@code <group>_<i>}, {@code <group>_<gpu>_<i>})
     * @throws InferenceException INVALID_ARG when no instance can receive work
     */
    static List<Planned> plan(final ModelContext context)
    {
        final ModelConfig config = context.config();
        final List<Planned> result = new ArrayList<>();
        for (final ModelInstanceGroup group : config.getInstanceGroupList())
        {
            if (group.getPassive())
            {
                continue;
            }
            final boolean gpu = group.getKind() == ModelInstanceGroup.Kind.KIND_GPU;
            final List<Integer> devices = gpu ? group.getGpusList() : List.of(-1);
            for (final int device : devices)
            {
                for (int i = 0; i < group.getCount(); i++)
                {
                    final String instanceName = group.getName() + "_" + (gpu ? device + "_" : "") + i;
                    result.add(new Planned(new InstanceContext(context, instanceName, result.size(), group.getKind(),
                        device, group.getProfileList()), group.getRateLimiter()));
                }
            }
        }
        if (result.isEmpty())
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, "model '" + context.modelName()
                + "' has no instance that can receive work (every instance group is passive or empty)");
        }
        return result;
    }

    /**
     * Makes and warms up every instance, and seats them at the model's scheduler; their threads start with
     * {@link #start}.
     *
     * @param plan        the instances
     * @param backend     the loaded backend, which creates their engines
     * @param model       the model version as its instances see it
     * @param ended       answers the requests the scheduler ends
     * @param warmup      runs the configuration's warm-up samples
     * @param idleMode    how the instance threads wait for work
     * @param rateLimiter the core's rate limiter, or {@code null} when it is off
     * @throws Exception what an engine's creation or a warm-up threw, after what was made is closed
     */
    ModelInstances(final List<Planned> plan, final Backend backend, final HostedModel model,
        final EndedResponses ended, final WarmupRunner warmup, final IdleMode idleMode, final RateLimiter rateLimiter)
        throws Exception
    {
        final List<Engine> engines = new ArrayList<>();
        final List<ModelInstance> instances = new ArrayList<>();
        final List<InstanceAgent> agents = new ArrayList<>();
        final ModelContext context = plan.getFirst().context().model();
        try (WarmupPlan samples = WarmupPlan.of(model.name(), model.config(), model.directory()))
        {
            for (final Planned planned : plan)
            {
                final InstanceContext instance = planned.context();
                final InstanceClaim claim = rateLimiter == null ? null : rateLimiter.register(model.name(),
                    instance.name(), planned.rateLimit(), Math.max(0, instance.deviceId()));
                if (claim != null)
                {
                    claims.add(claim);
                }
                final Engine engine = backend.createEngine(instance);
                engines.add(engine);
                final ModelInstance modelInstance = new ModelInstance(model, agents.size(), instance.name(), engine,
                    context.allocator());
                instances.add(modelInstance);
                // Triton warms each instance up right after it is initialized; the version serves only after all.
                warmUp(warmup, samples, modelInstance, claim);
                final InstanceAgent agent = new InstanceAgent(model.scheduler(), modelInstance, agents.size(),
                    Math.max(1, model.config().getMaxBatchSize()), ended, "ingot-instance-" + model.name() + "-v"
                    + model.version() + "-" + instance.name());
                if (claim != null)
                {
                    agent.rateLimitWith(claim);
                }
                else if (lendable(model.config(), engine))
                {
                    agent.lend();
                }
                agents.add(agent);
            }
        }
        catch (final Exception ex)
        {
            claims.forEach(InstanceClaim::close);
            for (final ModelInstance instance : instances)
            {
                instance.close();  // its staging and its engine
            }
            for (final Engine engine : engines.subList(instances.size(), engines.size()))
            {
                closeQuietly(engine);
            }
            throw ex;
        }
        final Seat[] seats = new Seat[agents.size()];
        for (int i = 0; i < seats.length; i++)
        {
            seats[i] = agents.get(i).seat();
        }
        model.scheduler().seat(seats);
        for (final InstanceAgent agent : agents)
        {
            runners.add(new AgentRunner(agent, IdleStrategies.of(idleMode, agent.seat().bell(), agent::hasWork),
                true, InstanceThread::new));
        }
    }

    /**
     * Whether callers may run the instance's batches on their own threads while it is idle
     * ({@code InferenceCore.submitAndRun}): the engine says any thread may call it, and its batches answer once per
     * request through the ordinary path — not a decoupled model's, not an engine's that responds per request — and
     * no sequence batcher routes them to this instance's slots. (The rate limiter is the agent's own check.)
     */
    private static boolean lendable(final ModelConfig config, final Engine engine)
    {
        return engine.runsOnAnyThread() && !engine.respondsPerRequest()
            && !config.getModelTransactionPolicy().getDecoupled() && !config.hasSequenceBatching();
    }

    /** A warm-up is an execution: under the rate limiter it holds the instance's resources, as in Triton. */
    private static void warmUp(final WarmupRunner runner, final WarmupPlan plan, final ModelInstance instance,
        final InstanceClaim claim)
    {
        if (claim == null || plan.isEmpty())
        {
            runner.run(plan, instance);
            return;
        }
        claim.acquireBlocking();
        try
        {
            runner.run(plan, instance);
        }
        finally
        {
            claim.release();
        }
    }

    /** Starts every instance thread. */
    void start()
    {
        runners.forEach(AgentRunner::start);
    }

    /** @return the requests of formed batches the rate limiter holds back (still pending, for the statistics) */
    long waitingRequests()
    {
        long waiting = 0;
        for (int i = 0; i < claims.size(); i++)
        {
            waiting += claims.get(i).waitingRequests();
        }
        return waiting;
    }

    /** After the scheduler's stop: waits for each instance thread to end (closing its engine), leaves the limiter. */
    void stop()
    {
        runners.forEach(AgentRunner::join);
        claims.forEach(InstanceClaim::close);
    }

    private static void closeQuietly(final AutoCloseable closeable)
    {
        try
        {
            closeable.close();
        }
        catch (final Exception ex)
        {
            LOG.log(Level.WARNING, "close failed", ex);
        }
    }
}
