package io.ingot.python;

import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.tensor.DataType;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * BLS: a Python model calling other models of the same core, {@code exec()} and {@code async_exec()} in an
 * {@code async def execute}, the called model's error as the BLS response's error, BLS outputs given back as the
 * model drops them (forty 1 MiB responses in a row through a 3 MiB BLS area), and an answer that arrives after the
 * execute that asked for it returned.
 */
class PythonBlsTest
{
    /**
     * MODE selects: 0 exec(), 1 two async_exec() at once, 2 a missing model, 3 forty 1 MiB calls in a row, 4 an
     * async_exec() whose future the model drops.
     */
    private static final String MODEL = """
        import asyncio

        import numpy as np
        import triton_python_backend_utils as pb_utils


        def add_sub(a, b):
            return pb_utils.InferenceRequest(model_name="add_sub_builtin", inputs=[
                pb_utils.Tensor("INPUT0", a.reshape(1, 16)), pb_utils.Tensor("INPUT1", b.reshape(1, 16))],
                requested_output_names=["OUTPUT0", "OUTPUT1"])


        def identity(x):
            return pb_utils.InferenceRequest(model_name="identity_builtin",
                                             inputs=[pb_utils.Tensor("INPUT0", x.reshape(1, -1))],
                                             requested_output_names=["OUTPUT0"])


        def output(response, name):
            if response.has_error():
                raise pb_utils.TritonModelException(response.error().message())
            return pb_utils.get_output_tensor_by_name(response, name).as_numpy()


        class TritonPythonModel:
            async def execute(self, requests):
                responses = []
                for request in requests:
                    a = pb_utils.get_input_tensor_by_name(request, "INPUT0").as_numpy()
                    b = pb_utils.get_input_tensor_by_name(request, "INPUT1").as_numpy()
                    mode = int(pb_utils.get_input_tensor_by_name(request, "MODE").as_numpy()[0])
                    if mode == 0:
                        response = add_sub(a, b).exec()
                        out0, out1 = output(response, "OUTPUT0"), output(response, "OUTPUT1")
                    elif mode == 1:
                        summed, same = await asyncio.gather(add_sub(a, b).async_exec(), identity(b).async_exec())
                        out0, out1 = output(summed, "OUTPUT0"), output(same, "OUTPUT0")
                    elif mode == 4:
                        identity(b).async_exec()  # dropped: its answer comes after this execute has returned
                        out0, out1 = a, b
                    elif mode == 2:
                        missing = pb_utils.InferenceRequest(model_name="missing", inputs=[pb_utils.Tensor("X", a)],
                                                            requested_output_names=["Y"]).exec()
                        responses.append(pb_utils.InferenceResponse(error=missing.error()))
                        continue
                    else:
                        total = np.zeros(16, dtype=np.float32)
                        big = np.ones(262144, dtype=np.float32)
                        for _ in range(40):
                            response = identity(big).exec()
                            total += output(response, "OUTPUT0")[0, :16]
                        out0, out1 = total, a
                    responses.append(pb_utils.InferenceResponse([
                        pb_utils.Tensor("OUTPUT0", out0.reshape(16)), pb_utils.Tensor("OUTPUT1", out1.reshape(16))]))
                return responses
        """;

    private static final String CONFIG = """
        name: "bls_caller"
        backend: "python"
        max_batch_size: 0
        input [
          { name: "INPUT0" data_type: TYPE_FP32 dims: [ 16 ] },
          { name: "INPUT1" data_type: TYPE_FP32 dims: [ 16 ] },
          { name: "MODE" data_type: TYPE_INT32 dims: [ 1 ] }
        ]
        output [
          { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 16 ] },
          { name: "OUTPUT1" data_type: TYPE_FP32 dims: [ 16 ] }
        ]
        instance_group [ { count: 2 kind: KIND_CPU } ]
        parameters { key: "INGOT_SHM_BYTES" value { string_value: "9437184" } }
        """;

    @TempDir
    static Path repository;
    private static InferenceCore core;

    @BeforeAll
    static void open() throws Exception
    {
        PythonTests.requirePython(PythonBlsTest.class);
        PythonTests.writeModel(repository, "bls_caller", CONFIG, MODEL);
        core = InferenceCore.open(PythonTests.options(repository, "bls_caller")
            .model(PythonTests.builtinAddSub())
            .model(TestModels.config("name: 'identity_builtin' backend: 'identity' max_batch_size: 8"
                + " input [{ name: 'INPUT0' data_type: TYPE_FP32 dims: [-1] }]"
                + " output [{ name: 'OUTPUT0' data_type: TYPE_FP32 dims: [-1] }]"))
            .build());
        PythonTests.assertReady(core, "bls_caller");
    }

    @AfterAll
    static void close()
    {
        PythonTests.close(core);
    }

    @Test
    void execCallsAnotherModelOfTheCore()
    {
        final Random random = new Random(1);
        final List<float[][]> sent = new ArrayList<>();
        final List<CompletableFuture<InferenceResponse>> futures = new ArrayList<>();
        for (int r = 0; r < 20; r++)
        {
            final float[] a = values(random);
            final float[] b = values(random);
            sent.add(new float[][] {a, b});
            futures.add(core.submit(request(0, a, b)));
        }
        for (int r = 0; r < futures.size(); r++)
        {
            try (InferenceResponse response = TestModels.await(futures.get(r)).throwIfError())
            {
                final float[] a = sent.get(r)[0];
                final float[] b = sent.get(r)[1];
                final float[] sum = new float[16];
                final float[] difference = new float[16];
                for (int i = 0; i < 16; i++)
                {
                    sum[i] = a[i] + b[i];
                    difference[i] = a[i] - b[i];
                }
                assertArrayEquals(sum, PythonTests.floatsOf(response, "OUTPUT0"), "request " + r);
                assertArrayEquals(difference, PythonTests.floatsOf(response, "OUTPUT1"), "request " + r);
            }
        }
    }

    @Test
    void asyncExecRunsSeveralCallsAtOnce()
    {
        final Random random = new Random(2);
        final float[] a = values(random);
        final float[] b = values(random);
        try (InferenceResponse response = TestModels.await(core.submit(request(1, a, b))).throwIfError())
        {
            final float[] sum = new float[16];
            for (int i = 0; i < 16; i++)
            {
                sum[i] = a[i] + b[i];
            }
            assertArrayEquals(sum, PythonTests.floatsOf(response, "OUTPUT0"));
            assertArrayEquals(b, PythonTests.floatsOf(response, "OUTPUT1"));
        }
    }

    @Test
    void aFailedCallIsTheResponsesErrorNotAnException()
    {
        try (InferenceResponse response = TestModels.await(core.submit(request(2, new float[16], new float[16]))))
        {
            assertFalse(response.isOk());
            assertTrue(response.error().getMessage().contains("Request for unknown model: 'missing' is not found"),
                response.error().getMessage());
        }
    }

    @Test
    void outputsAreGivenBackAsTheModelDropsThem()
    {
        final float[] a = values(new Random(3));
        try (InferenceResponse response = TestModels.await(core.submit(request(3, a, a))).throwIfError())
        {
            final float[] forty = new float[16];
            Arrays.fill(forty, 40);
            assertArrayEquals(forty, PythonTests.floatsOf(response, "OUTPUT0"),
                "forty 1 MiB BLS responses through a 3 MiB BLS area");
        }
        assertEquals(0, core.modelStatistics("identity_builtin", -1).getFirst().pendingRequests());
    }

    @Test
    void anAnswerThatArrivesAfterItsExecuteIsDroppedAndTheStubServesOn()
    {
        final float[] a = values(new Random(4));
        final float[] b = values(new Random(5));
        for (int round = 0; round < 5; round++)
        {
            try (InferenceResponse dropped = TestModels.await(core.submit(request(4, a, b))).throwIfError();
                 InferenceResponse next = TestModels.await(core.submit(request(1, a, b))).throwIfError())
            {
                assertArrayEquals(a, PythonTests.floatsOf(dropped, "OUTPUT0"));
                assertArrayEquals(b, PythonTests.floatsOf(next, "OUTPUT1"), "round " + round);
            }
        }
    }

    private static InferenceRequest request(final int mode, final float[] a, final float[] b)
    {
        final MemorySegment modeData = MemorySegment.ofArray(new int[] {mode});
        return new InferenceRequest("bls_caller").addInput("INPUT0", DataType.FP32, new long[] {16},
            PythonTests.floats(a)).addInput("INPUT1", DataType.FP32, new long[] {16}, PythonTests.floats(b))
            .addInput("MODE", DataType.INT32, new long[] {1}, modeData);
    }

    private static float[] values(final Random random)
    {
        final float[] values = new float[16];
        for (int i = 0; i < values.length; i++)
        {
            values[i] = random.nextInt(1000) - 500;
        }
        return values;
    }
}
