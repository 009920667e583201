package io.ingot.python;

import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelStatistics;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Triton's add_sub example in Python ({@code examples/models/add_sub_python}), served by the Python backend, against
 * Ingot's built-in add_sub backend in the same core: the same answers, bit for bit, for single requests and for
 * batches of many requests.
 */
class PythonAddSubTest
{
    private static final int ELEMENTS = 16;
    private static InferenceCore core;

    @BeforeAll
    static void open()
    {
        PythonTests.requirePython(PythonAddSubTest.class);
        core = InferenceCore.open(PythonTests.options(PythonTests.examples(), "add_sub_python")
            .model(PythonTests.builtinAddSub())
            .build());
        PythonTests.assertReady(core, "add_sub_python");
    }

    @AfterAll
    static void close()
    {
        PythonTests.close(core);
    }

    @Test
    void oneRequestGetsTheBuiltinAnswer()
    {
        final Random random = new Random(18);
        final float[] a = values(random);
        final float[] b = values(random);
        try (InferenceResponse python = TestModels.await(core.submit(PythonTests.addSub("add_sub_python",
                new long[] {1, ELEMENTS}, a, b))).throwIfError();
             InferenceResponse builtin = TestModels.await(core.submit(PythonTests.addSub("add_sub_builtin",
                new long[] {1, ELEMENTS}, a, b))).throwIfError())
        {
            assertArrayEquals(PythonTests.floatsOf(builtin, "OUTPUT0"), PythonTests.floatsOf(python, "OUTPUT0"));
            assertArrayEquals(PythonTests.floatsOf(builtin, "OUTPUT1"), PythonTests.floatsOf(python, "OUTPUT1"));
            assertArrayEquals(new long[] {1, ELEMENTS}, python.output("OUTPUT0").shape());
        }
    }

    @Test
    void manyConcurrentRequestsAreBatchedAndEachGetsItsOwnAnswer()
    {
        final Random random = new Random(7);
        final int requests = 200;
        final List<float[][]> inputs = new ArrayList<>();
        final List<CompletableFuture<InferenceResponse>> python = new ArrayList<>();
        for (int r = 0; r < requests; r++)
        {
            final float[] a = values(random);
            final float[] b = values(random);
            inputs.add(new float[][] {a, b});
            python.add(core.submit(PythonTests.addSub("add_sub_python", new long[] {1, ELEMENTS}, a, b)));
        }
        for (int r = 0; r < requests; r++)
        {
            final float[][] in = inputs.get(r);
            try (InferenceResponse answer = TestModels.await(python.get(r)).throwIfError();
                 InferenceResponse expected = TestModels.await(core.submit(PythonTests.addSub("add_sub_builtin",
                    new long[] {1, ELEMENTS}, in[0], in[1]))).throwIfError())
            {
                assertArrayEquals(PythonTests.floatsOf(expected, "OUTPUT0"), PythonTests.floatsOf(answer, "OUTPUT0"),
                    "request " + r);
                assertArrayEquals(PythonTests.floatsOf(expected, "OUTPUT1"), PythonTests.floatsOf(answer, "OUTPUT1"),
                    "request " + r);
            }
        }
        final ModelStatistics stats = core.modelStatistics("add_sub_python", -1).getFirst();
        final long largest = stats.batchStats().stream().mapToLong(batch -> batch.batchSize()).max().orElse(0);
        assertTrue(largest > 1, "200 requests at once must form batches of several requests; largest was " + largest);
        assertTrue(stats.executionCount() < stats.inferenceCount(), "executions " + stats.executionCount()
            + " must be fewer than inferences " + stats.inferenceCount());
    }

    @Test
    void aRequestOfSeveralRowsIsOneRequestWithAllItsRows()
    {
        final Random random = new Random(3);
        final float[] a = new float[3 * ELEMENTS];
        final float[] b = new float[3 * ELEMENTS];
        for (int i = 0; i < a.length; i++)
        {
            a[i] = random.nextFloat();
            b[i] = random.nextFloat();
        }
        try (InferenceResponse python = TestModels.await(core.submit(PythonTests.addSub("add_sub_python",
                new long[] {3, ELEMENTS}, a, b))).throwIfError();
             InferenceResponse builtin = TestModels.await(core.submit(PythonTests.addSub("add_sub_builtin",
                new long[] {3, ELEMENTS}, a, b))).throwIfError())
        {
            assertArrayEquals(new long[] {3, ELEMENTS}, python.output("OUTPUT1").shape());
            assertArrayEquals(PythonTests.floatsOf(builtin, "OUTPUT0"), PythonTests.floatsOf(python, "OUTPUT0"));
            assertArrayEquals(PythonTests.floatsOf(builtin, "OUTPUT1"), PythonTests.floatsOf(python, "OUTPUT1"));
        }
    }

    private static float[] values(final Random random)
    {
        final float[] values = new float[ELEMENTS];
        for (int i = 0; i < ELEMENTS; i++)
        {
            values[i] = (random.nextFloat() - 0.5f) * 1000;
        }
        return values;
    }
}
