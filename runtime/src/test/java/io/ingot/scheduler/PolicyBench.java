package io.ingot.scheduler;

import io.ingot.api.InferenceRequest;
import io.ingot.config.ConfigException;
import io.ingot.config.ConfigNormalizer;
import io.ingot.config.NormalizeContext;
import io.ingot.config.proto.ModelConfig;
import io.ingot.tensor.DataType;
import io.ingot.testing.TestModels;

import java.lang.foreign.MemorySegment;
import java.util.function.BiFunction;

/**
 * A policy under test with a clock the test moves by hand: requests of one INT32 input are accepted at {@link #now}
 * as the scheduler would accept them, and instance 0 asks. No threads, no sleeps.
 */
final class PolicyBench
{
    static final long MS = 1_000_000L;
    static final long US = 1_000L;
    static final String MODEL = "max_batch_size: 8 input [{ name: 'INPUT0' data_type: TYPE_INT32 dims: [1] }]"
        + " output [{ name: 'OUTPUT0' data_type: TYPE_INT32 dims: [1] }] ";

    final SchedulerSettings settings;
    final LevelAdmission admission;
    final BatchPolicy policy;
    final FormedBatch batch;
    final EndedRequests ended = new EndedRequests();
    long now = 1_000 * MS;
    private int tags;

    /**
     * @param pbtxt   the model's configuration after its name and backend
     * @param factory makes the policy from the settings and admission
     */
    PolicyBench(final String pbtxt, final BiFunction<SchedulerSettings, LevelAdmission, BatchPolicy> factory)
    {
        settings = SchedulerSettings.of(normalized(pbtxt));
        admission = new LevelAdmission(settings);
        policy = factory.apply(settings, admission);
        batch = new FormedBatch(settings.maxBatchSize());
    }

    /**
     * @param pbtxt a configuration after its name and backend
     * @return model {@code m}'s configuration, normalized as a load does (CPU only)
     */
    static ModelConfig normalized(final String pbtxt)
    {
        try
        {
            return ConfigNormalizer.normalize(TestModels.config("name: 'm' backend: 'b' " + pbtxt),
                NormalizeContext.cpuOnly());
        }
        catch (final ConfigException ex)
        {
            throw new IllegalArgumentException(ex);
        }
    }

    /** Accepts a request of batch size 1 at {@link #now}. */
    PendingRequest submit()
    {
        return submit(0, 0);
    }

    /** Accepts a request of batch size 1 with a priority and a timeout at {@link #now}. */
    PendingRequest submit(final long priority, final long timeoutMicros)
    {
        final InferenceRequest request = new InferenceRequest("m").id("r" + ++tags).priority(priority)
            .timeoutMicros(timeoutMicros)
            .addInput("INPUT0", DataType.INT32, new long[] {1, 1}, MemorySegment.ofArray(new int[1]));
        final PendingRequest pending = new PendingRequest();
        pending.request = request;
        pending.batchSize = 1;
        pending.ensureInputCapacity(1);
        pending.inputIndexByConfig[0] = 0;
        pending.presentInputs = 1;
        pending.level = settings.levelOf(priority);
        pending.timeoutNs = settings.policyOf(pending.level).timeoutNs(timeoutMicros);
        pending.acceptedNs = now;
        admission.tryAdmit(pending.level);
        policy.enqueue(pending);
        return pending;
    }

    /** Instance 0 is free and asks. */
    int decide()
    {
        ended.clear();
        return policy.decide(now, 0, batch, ended);
    }

    /** Reports that instance 0 ran a batch of {@code size} in {@code a + b·size} nanoseconds, {@code times} times. */
    void learn(final int size, final long aNs, final long bNs, final int times)
    {
        for (int i = 0; i < times; i++)
        {
            policy.executed(0, size, aNs + bNs * size);
        }
    }
}
