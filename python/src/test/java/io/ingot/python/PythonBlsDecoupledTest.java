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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * BLS with {@code decoupled=True}, in the style of Triton's bls_decoupled examples: a model calls a decoupled Python
 * model (which answers from a thread of its own after {@code execute} returned) and iterates over every response, the
 * last one carrying the final flag, synchronously and with two {@code async_exec} gathered; a call without
 * {@code decoupled=True} to a decoupled model gets Triton's error as its response's error.
 */
class PythonBlsDecoupledTest
{
    private static final String COUNTER = """
        import threading

        import numpy as np
        import triton_python_backend_utils as pb_utils


        class TritonPythonModel:
            def send(self, sender, n):
                for i in range(n):
                    sender.send(pb_utils.InferenceResponse([pb_utils.Tensor("OUT", np.array([i + 1], np.int32))]))
                sender.send(flags=pb_utils.TRITONSERVER_RESPONSE_COMPLETE_FINAL)

            def execute(self, requests):
                for request in requests:
                    n = int(pb_utils.get_input_tensor_by_name(request, "IN").as_numpy()[0])
                    threading.Thread(target=self.send, args=(request.get_response_sender(), n)).start()
                return None
        """;

    private static final String COUNTER_CONFIG = """
        name: "counter"
        backend: "python"
        model_transaction_policy { decoupled: true }
        input [ { name: "IN" data_type: TYPE_INT32 dims: [ 1 ] } ]
        output [ { name: "OUT" data_type: TYPE_INT32 dims: [ 1 ] } ]
        """;

    /** MODE 0: exec(decoupled=True); 1: two async_exec(decoupled=True); 2: exec() of a decoupled model. */
    private static final String SUMMER = """
        import asyncio

        import numpy as np
        import triton_python_backend_utils as pb_utils


        def count(n):
            return pb_utils.InferenceRequest(model_name="counter", inputs=[pb_utils.Tensor("IN", n)],
                                             requested_output_names=["OUT"])


        def total(responses):
            values, finals = [], 0
            for response in responses:
                if response.has_error():
                    raise pb_utils.TritonModelException(response.error().message())
                if len(response.output_tensors()) > 0:
                    values.append(int(pb_utils.get_output_tensor_by_name(response, "OUT").as_numpy()[0]))
                else:
                    finals += 1
            return values, finals


        class TritonPythonModel:
            async def execute(self, requests):
                responses = []
                for request in requests:
                    n = pb_utils.get_input_tensor_by_name(request, "IN").as_numpy()
                    mode = int(pb_utils.get_input_tensor_by_name(request, "MODE").as_numpy()[0])
                    if mode == 0:
                        values, finals = total(count(n).exec(decoupled=True))
                        text = "%s finals=%d" % (values, finals)
                    elif mode == 1:
                        streams = await asyncio.gather(count(n).async_exec(decoupled=True),
                                                       count(n + 1).async_exec(decoupled=True))
                        text = " ".join("%s finals=%d" % total(stream) for stream in streams)
                    else:
                        response = count(n).exec()
                        text = response.error().message() if response.has_error() else "no error"
                    responses.append(pb_utils.InferenceResponse([pb_utils.Tensor(
                        "TEXT", np.array([text.encode()], dtype=np.object_))]))
                return responses
        """;

    private static final String SUMMER_CONFIG = """
        name: "summer"
        backend: "python"
        input [
          { name: "IN" data_type: TYPE_INT32 dims: [ 1 ] },
          { name: "MODE" data_type: TYPE_INT32 dims: [ 1 ] }
        ]
        output [ { name: "TEXT" data_type: TYPE_STRING dims: [ 1 ] } ]
        """;

    @TempDir
    static Path repository;
    private static InferenceCore core;

    @BeforeAll
    static void open() throws Exception
    {
        PythonTests.requirePython(PythonBlsDecoupledTest.class);
        PythonTests.writeModel(repository, "counter", COUNTER_CONFIG, COUNTER);
        PythonTests.writeModel(repository, "summer", SUMMER_CONFIG, SUMMER);
        core = PythonTests.open(repository, "counter", "summer");
    }

    @AfterAll
    static void close()
    {
        PythonTests.close(core);
    }

    @Test
    void execWithDecoupledIteratesOverEveryResponse()
    {
        assertEquals("[1, 2, 3, 4] finals=1", call(4, 0));
        assertEquals("[] finals=1", call(0, 0), "only the final flag");
    }

    @Test
    void asyncExecWithDecoupledGathersTwoStreams()
    {
        assertEquals("[1, 2] finals=1 [1, 2, 3] finals=1", call(2, 1));
    }

    @Test
    void execWithoutDecoupledOfADecoupledModelIsTritonsError()
    {
        final String text = call(2, 2);
        assertTrue(text.contains("Model counter is using the decoupled. The current BLS request call doesn't support "
            + "models using the decoupled transaction policy. Please use 'decoupled=True' argument to the 'exec' or "
            + "'async_exec' calls for decoupled models.'"), text);
    }

    private static String call(final int n, final int mode)
    {
        try (InferenceResponse response = TestModels.await(core.submit(new InferenceRequest("summer")
            .addInput("IN", DataType.INT32, new long[] {1}, MemorySegment.ofArray(new int[] {n}))
            .addInput("MODE", DataType.INT32, new long[] {1}, MemorySegment.ofArray(new int[] {mode}))))
            .throwIfError())
        {
            return PythonTests.firstString(response, "TEXT");
        }
    }
}
