package io.ingot.perf.baseline;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ComparisonTest
{
    private static CostComparison cost(final String... args)
    {
        final CostComparison cost = new CostComparison();
        new CommandLine(cost).parseArgs(args);
        return cost;
    }

    @Test
    void idealThroughputOfTheCostModel()
    {
        final CostComparison model = cost("--out", "x", "--base-us", "2000", "--per-item-us", "250",
            "--instances", "2", "--max-batch", "16");
        // One client: one request per a + b.
        assertEquals(1e6 / 2250, model.idealThroughput(1), 1e-9);
        // Two clients, two instances: both busy with batches of one.
        assertEquals(2e6 / 2250, model.idealThroughput(2), 1e-9);
        // Eight clients: batches of four on each instance.
        assertEquals(2 * 4 * 1e6 / (2000 + 250 * 4), model.idealThroughput(8), 1e-9);
        // Beyond 2 x 16 clients the batch is capped at max_batch_size.
        assertEquals(2 * 16 * 1e6 / (2000 + 250 * 16), model.idealThroughput(64), 1e-9);
        assertEquals(model.idealThroughput(32), model.idealThroughput(64), 1e-9);
    }
}
