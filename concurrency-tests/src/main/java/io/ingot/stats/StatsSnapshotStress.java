package io.ingot.stats;

import io.ingot.api.ModelStatistics;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * An instance records a batch of two requests while a monitor takes a statistics snapshot: the snapshot holds the
 * batch's execution and both its inferences, or none of them.
 *
 * <p>r1: executions seen; r2: inferences seen.
 */
@JCStressTest
@Outcome(id = {"0, 0", "1, 2"}, expect = ACCEPTABLE, desc = "the batch is counted whole or not at all")
@Outcome(expect = FORBIDDEN, desc = "a half-counted batch: the average batch size of a window would be wrong")
@State
public class StatsSnapshotStress
{
    private final ModelStatsRecorder recorder = new ModelStatsRecorder(4, 1, () -> 0);

    /** The instance records one execution of two requests. */
    @Actor
    public void instance()
    {
        final StatsCell cell = recorder.cell(0);
        cell.beginUpdate();
        cell.batchExecuted(2, 10, 20, 30, 1);
        cell.requestSucceeded(1, 100, 40, 10, 20, 30);
        cell.requestSucceeded(1, 100, 40, 10, 20, 30);
        cell.endUpdate();
    }

    /**
     * A monitor reads the statistics.
     *
     * @param result what it saw
     */
    @Actor
    public void monitor(final JJ_Result result)
    {
        final ModelStatistics snapshot = recorder.snapshot("m", "1");
        result.r1 = snapshot.executionCount();
        result.r2 = snapshot.inferenceCount();
    }
}
