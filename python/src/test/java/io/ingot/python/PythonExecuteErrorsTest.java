package io.ingot.python;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.tensor.DataType;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@code execute} does wrong is answered as an error for the request it concerns, with Triton's message, and the
 * model keeps serving: an exception, an error response (with the model's code), a wrong number of responses,
 * something that is not a list or not a response. What Triton does not check is not checked: outputs keep the data
 * type and shape the model gave them, and a requested output the model did not return is absent.
 */
class PythonExecuteErrorsTest
{
    /** INPUT0[0] selects what the model does wrong; any other value doubles the input. */
    private static final String MODEL = """
        import numpy as np
        import triton_python_backend_utils as pb_utils


        class TritonPythonModel:
            def execute(self, requests):
                responses = []
                for request in requests:
                    x = pb_utils.get_input_tensor_by_name(request, "INPUT0").as_numpy()
                    mode = int(x[0])
                    if mode == -1:
                        raise ValueError("the model refuses %s" % x[0])
                    if mode == 1:
                        error = pb_utils.TritonError("one request refused", pb_utils.TritonError.INVALID_ARG)
                        responses.append(pb_utils.InferenceResponse(error=error))
                        continue
                    if mode == 2:
                        return [pb_utils.InferenceResponse([]), pb_utils.InferenceResponse([])]
                    if mode == 3:
                        return tuple(responses)
                    if mode == 8:
                        return ["not a response"]
                    outputs = [pb_utils.Tensor("OUTPUT0", x * 2), pb_utils.Tensor("OUTPUT1", x[:2])]
                    if mode == 4:
                        outputs[0] = pb_utils.Tensor("OUTPUT0", x.astype(np.float64))
                    elif mode == 5:
                        outputs[0] = pb_utils.Tensor("OUTPUT0", x.reshape(1, -1))
                    elif mode == 6:
                        outputs.append(pb_utils.Tensor("NOPE", x))
                    elif mode == 7:
                        outputs = outputs[1:]
                    elif mode == 9:
                        outputs[1] = pb_utils.Tensor("OUTPUT1", x[:3])
                    responses.append(pb_utils.InferenceResponse(output_tensors=outputs))
                return responses
        """;

    private static final String CONFIG = """
        name: "misbehaving"
        backend: "python"
        max_batch_size: 0
        input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ -1 ] } ]
        output [
          { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ -1 ] },
          { name: "OUTPUT1" data_type: TYPE_FP32 dims: [ 2 ] }
        ]
        instance_group [ { count: 2 kind: KIND_CPU } ]
        """;

    @TempDir
    static Path repository;
    private static InferenceCore core;

    @BeforeAll
    static void open() throws Exception
    {
        PythonTests.requirePython(PythonExecuteErrorsTest.class);
        PythonTests.writeModel(repository, "misbehaving", CONFIG, MODEL);
        core = PythonTests.open(repository, "misbehaving");
    }

    @AfterAll
    static void close()
    {
        PythonTests.close(core);
    }

    @Test
    void anExceptionInExecuteFailsOnlyItsRequestWithTritonsMessage()
    {
        final List<CompletableFuture<InferenceResponse>> good = new ArrayList<>();
        for (int i = 0; i < 6; i++)
        {
            good.add(core.submit(request(10 + i, 1, 2)));
        }
        final CompletableFuture<InferenceResponse> bad = core.submit(request(-1, 5, 6));
        for (int i = 6; i < 12; i++)
        {
            good.add(core.submit(request(10 + i, 1, 2)));
        }
        final String message = errorOf(bad);
        assertTrue(message.contains("model 'misbehaving'"), message);
        assertTrue(message.contains("Failed to process the request(s) for model 'misbehaving', message: ValueError: "
            + "the model refuses -1.0"), message);
        assertTrue(message.contains("model.py(12): execute"), "the traceback names the model's line: " + message);
        for (int i = 0; i < good.size(); i++)
        {
            try (InferenceResponse response = TestModels.await(good.get(i)).throwIfError())
            {
                assertArrayEquals(new float[] {2 * (10 + i), 2, 4}, PythonTests.floatsOf(response, "OUTPUT0"));
            }
        }
    }

    @Test
    void anErrorResponseFailsItsRequestWithTheModelsMessage()
    {
        try (InferenceResponse response = TestModels.await(core.submit(request(1, 2, 3))))
        {
            assertEquals("one request refused", response.error().getMessage());
            assertEquals(ErrorCode.INVALID_ARG, response.error().code(), "the code the model gave");
        }
        assertServes();
    }

    @Test
    void theWrongNumberOfResponsesIsTritonsError()
    {
        final String message = errorOf(core.submit(request(2, 2, 3)));
        assertTrue(message.contains("Number of InferenceResponse objects do not match the number of InferenceRequest "
            + "objects. InferenceRequest(s) size is:1, and InferenceResponse(s) size is:2"), message);
        assertServes();
    }

    @Test
    void somethingOtherThanAListOfResponsesIsTritonsError()
    {
        final String tuple = errorOf(core.submit(request(3, 2, 3)));
        assertTrue(tuple.contains("Expected a list in the execute return, found type '<class 'tuple'>'."), tuple);
        final String text = errorOf(core.submit(request(8, 2, 3)));
        assertTrue(text.contains("Expected an 'InferenceResponse' object in the execute function return list, found "
            + "type '<class 'str'>'."), text);
        assertServes();
    }

    @Test
    void anOutputKeepsTheDataTypeTheModelGaveItAsInTriton()
    {
        // Triton's Python backend does not hold outputs to the configuration's data type: FP64 reaches the client.
        try (InferenceResponse response = TestModels.await(core.submit(request(4, 2, 3))).throwIfError())
        {
            assertEquals(DataType.FP64, response.output("OUTPUT0").dataType());
            assertArrayEquals(new double[] {4, 2, 3},
                response.output("OUTPUT0").data().toArray(ValueLayout.JAVA_DOUBLE));
        }
    }

    @Test
    void outputsKeepTheShapesTheModelGaveThemAsInTriton()
    {
        try (InferenceResponse rank = TestModels.await(core.submit(request(5, 2, 3))).throwIfError())
        {
            assertArrayEquals(new long[] {1, 3}, rank.output("OUTPUT0").shape());
        }
        try (InferenceResponse size = TestModels.await(core.submit(request(9, 2, 3))).throwIfError())
        {
            assertArrayEquals(new long[] {3}, size.output("OUTPUT1").shape(), "dims [2] are not imposed");
            assertArrayEquals(new float[] {9, 2, 3}, PythonTests.floatsOf(size, "OUTPUT1"));
        }
    }

    @Test
    void aRequestedOutputTheModelDidNotReturnIsAbsentAsInTriton()
    {
        try (InferenceResponse response = TestModels.await(core.submit(request(7, 2, 3))).throwIfError())
        {
            assertEquals(1, response.outputCount(), "only OUTPUT1: " + response);
            assertArrayEquals(new float[] {7, 2}, PythonTests.floatsOf(response, "OUTPUT1"));
        }
    }

    @Test
    void anOutputTheConfigurationDoesNotHaveIsDroppedAsInTriton()
    {
        // Triton's Python backend sends only requested outputs; a name the configuration lacks is never requested.
        try (InferenceResponse response = TestModels.await(core.submit(request(6, 2, 3))).throwIfError())
        {
            assertArrayEquals(new float[] {12, 4, 6}, PythonTests.floatsOf(response, "OUTPUT0"));
            assertTrue(response.outputCount() == 2, "OUTPUT0 and OUTPUT1 only: " + response);
        }
    }

    @Test
    void anOutputThatWasNotRequestedIsNotChecked()
    {
        final InferenceRequest request = request(7, 2, 3).requestOutput("OUTPUT1");
        try (InferenceResponse response = TestModels.await(core.submit(request)).throwIfError())
        {
            assertArrayEquals(new float[] {7, 2}, PythonTests.floatsOf(response, "OUTPUT1"));
            assertFalse(response.outputCount() > 1, "only OUTPUT1 was asked for");
        }
    }

    private static void assertServes()
    {
        try (InferenceResponse response = TestModels.await(core.submit(request(21, 1, 0))).throwIfError())
        {
            assertArrayEquals(new float[] {42, 2, 0}, PythonTests.floatsOf(response, "OUTPUT0"));
        }
    }

    private static String errorOf(final CompletableFuture<InferenceResponse> future)
    {
        try (InferenceResponse response = TestModels.await(future))
        {
            assertFalse(response.isOk(), "the request must fail");
            return response.error().getMessage();
        }
    }

    private static InferenceRequest request(final float... values)
    {
        return new InferenceRequest("misbehaving").addInput("INPUT0", DataType.FP32, new long[] {values.length},
            PythonTests.floats(values));
    }
}
