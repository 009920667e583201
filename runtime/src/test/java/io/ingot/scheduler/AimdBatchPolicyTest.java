package io.ingot.scheduler;

import org.junit.jupiter.api.Test;

import static io.ingot.scheduler.PolicyBench.MS;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Clipper's AIMD batch sizing: additive increase within the objective, multiplicative decrease beyond it. */
class AimdBatchPolicyTest
{
    private static final long SLO = 5 * MS;

    private static AimdBatchPolicy policy(final PolicyBench[] holder, final int increase, final double decrease)
    {
        final AimdBatchPolicy[] made = new AimdBatchPolicy[1];
        holder[0] = new PolicyBench(PolicyBench.MODEL + "dynamic_batching { }",
            (settings, admission) -> made[0] = new AimdBatchPolicy(settings, true, admission, 1, SLO, increase,
                decrease));
        return made[0];
    }

    @Test
    void growsByTheStepWhileBatchesMeetTheObjectiveUpToMaxBatchSize()
    {
        final PolicyBench[] bench = new PolicyBench[1];
        final AimdBatchPolicy aimd = policy(bench, 3, 0.5);
        assertEquals(1, aimd.cap(0), "starts at 1");
        aimd.executed(0, 1, 2 * MS);
        assertEquals(4, aimd.cap(0));
        aimd.executed(0, 4, SLO);
        assertEquals(7, aimd.cap(0), "exactly at the objective still meets it");
        aimd.executed(0, 7, 3 * MS);
        assertEquals(8, aimd.cap(0), "capped at max_batch_size");
    }

    @Test
    void cutsByTheFactorWhenABatchMissesTheObjectiveButNeverBelowOne()
    {
        final PolicyBench[] bench = new PolicyBench[1];
        final AimdBatchPolicy aimd = policy(bench, 1, 0.9);
        for (int i = 0; i < 7; i++)
        {
            aimd.executed(0, i + 1, MS);
        }
        assertEquals(8, aimd.cap(0));
        aimd.executed(0, 8, SLO + 1);
        assertEquals(7, aimd.cap(0), "8 x 0.9 = 7.2");
        for (int i = 0; i < 20; i++)
        {
            aimd.executed(0, 1, 10 * MS);
        }
        assertEquals(1, aimd.cap(0));
    }

    @Test
    void dispatchesAtOnceUpToTheCap()
    {
        final PolicyBench[] bench = new PolicyBench[1];
        final AimdBatchPolicy aimd = policy(bench, 2, 0.9);
        for (int i = 0; i < 6; i++)
        {
            bench[0].submit();
        }
        assertEquals(BatchPolicy.DISPATCH, bench[0].decide());
        assertEquals(1, bench[0].batch.batchSize(), "cap 1");
        aimd.executed(0, 1, MS);
        assertEquals(BatchPolicy.DISPATCH, bench[0].decide());
        assertEquals(3, bench[0].batch.batchSize(), "cap 3");
        aimd.executed(0, 3, MS);
        assertEquals(BatchPolicy.DISPATCH, bench[0].decide());
        assertEquals(2, bench[0].batch.batchSize(), "cap 5, two left");
        assertEquals(BatchPolicy.EMPTY, bench[0].decide());
    }
}
