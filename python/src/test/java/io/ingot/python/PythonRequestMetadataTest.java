package io.ingot.python;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
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
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a request carries reaches {@code execute} as Triton's Python backend hands it over: {@code request_id()},
 * {@code parameters()} (the JSON of the request's custom parameters, typed as sent), {@code correlation_id()} (a
 * number or a string), {@code flags()} (the sequence start and end flags), {@code timeout()},
 * {@code requested_output_names()} and {@code is_cancelled()} (true once the request's timeout has passed). A BLS
 * request forwards its parameters and its id, and names its model by a str or by the bytes of a BYTES tensor, as
 * Triton's bls example does. Requests batched together are handed over one by one, each with its own rows.
 */
class PythonRequestMetadataTest
{
    /** Describes each request as JSON in TEXT; ROWS gives its rows of IN back; with WAIT it sleeps first. */
    private static final String DESCRIBE = """
        import json
        import time

        import numpy as np
        import triton_python_backend_utils as pb_utils


        class TritonPythonModel:
            def execute(self, requests):
                responses = []
                for request in requests:
                    x = pb_utils.get_input_tensor_by_name(request, "IN").as_numpy()
                    if x.size and x.flat[0] < 0:
                        time.sleep(0.2)
                    described = {"id": request.request_id(), "parameters": json.loads(request.parameters()),
                                 "correlation": request.correlation_id(), "flags": request.flags(),
                                 "timeout": request.timeout(), "requested": request.requested_output_names(),
                                 "cancelled": request.is_cancelled(), "requests": len(requests)}
                    text = np.array([json.dumps(described).encode()] * x.shape[0], dtype=np.object_)
                    responses.append(pb_utils.InferenceResponse([
                        pb_utils.Tensor("TEXT", text.reshape(x.shape[0], 1)), pb_utils.Tensor("ROWS", x)]))
                return responses
        """;

    private static final String DESCRIBE_CONFIG = """
        name: "describe"
        backend: "python"
        max_batch_size: 8
        dynamic_batching { max_queue_delay_microseconds: 100000 }
        input [ { name: "IN" data_type: TYPE_FP32 dims: [ 2 ] } ]
        output [
          { name: "TEXT" data_type: TYPE_STRING dims: [ 1 ] },
          { name: "ROWS" data_type: TYPE_FP32 dims: [ 2 ] }
        ]
        """;

    /** Calls the model its TARGET names (the bytes of a BYTES tensor) with parameters, and returns its TEXT. */
    private static final String FORWARD = """
        import numpy as np
        import triton_python_backend_utils as pb_utils


        class TritonPythonModel:
            def execute(self, requests):
                responses = []
                for request in requests:
                    target = pb_utils.get_input_tensor_by_name(request, "TARGET").as_numpy()[0]
                    call = pb_utils.InferenceRequest(
                        model_name=target, request_id="forwarded-" + request.request_id(),
                        inputs=[pb_utils.Tensor("IN", np.ones((1, 2), dtype=np.float32))],
                        requested_output_names=["TEXT"], parameters={"k": "v", "n": 3, "b": False},
                        correlation_id="corr-7", flags=pb_utils.TRITONSERVER_REQUEST_FLAG_SEQUENCE_END)
                    reply = call.exec()
                    if reply.has_error():
                        raise pb_utils.TritonModelException(reply.error().message())
                    text = pb_utils.get_output_tensor_by_name(reply, "TEXT").as_numpy()
                    responses.append(pb_utils.InferenceResponse([pb_utils.Tensor("TEXT", text.reshape(1))]))
                return responses
        """;

    private static final String FORWARD_CONFIG = """
        name: "forward"
        backend: "python"
        max_batch_size: 0
        input [ { name: "TARGET" data_type: TYPE_STRING dims: [ 1 ] } ]
        output [ { name: "TEXT" data_type: TYPE_STRING dims: [ 1 ] } ]
        """;

    @TempDir
    static Path repository;
    private static InferenceCore core;

    @BeforeAll
    static void open() throws Exception
    {
        PythonTests.requirePython(PythonRequestMetadataTest.class);
        PythonTests.writeModel(repository, "describe", DESCRIBE_CONFIG, DESCRIBE);
        PythonTests.writeModel(repository, "forward", FORWARD_CONFIG, FORWARD);
        core = PythonTests.open(repository, "describe", "forward");
    }

    @AfterAll
    static void close()
    {
        PythonTests.close(core);
    }

    @Test
    void idParametersFlagsAndTimeoutReachTheModel()
    {
        final InferenceRequest request = describe(1, 1).id("req-1").timeoutMicros(5_000_000)
            .parameter("p1", "x").parameter("p2", 5L).parameter("p3", true).parameter("p4", 1.5)
            .sequence(42, true, false);
        final JsonObject described = describedBy(TestModels.await(core.submit(request)));
        assertEquals("req-1", described.get("id").getAsString());
        assertEquals(JsonParser.parseString("{\"p1\":\"x\",\"p2\":5,\"p3\":true,\"p4\":1.5}"),
            described.get("parameters"));
        assertEquals(42, described.get("correlation").getAsLong());
        assertEquals(1, described.get("flags").getAsInt(), "TRITONSERVER_REQUEST_FLAG_SEQUENCE_START");
        assertEquals(5_000_000, described.get("timeout").getAsLong());
        assertEquals(JsonParser.parseString("[\"TEXT\",\"ROWS\"]"), described.get("requested"),
            "a request that names no output asks for all");
        assertFalse(described.get("cancelled").getAsBoolean());
    }

    @Test
    void aStringCorrelationIdTheEndFlagAndRequestedOutputsAsGiven()
    {
        final InferenceRequest request = describe(1, 1).sequence("corr-a", false, true).requestOutput("TEXT");
        final JsonObject described = describedBy(TestModels.await(core.submit(request)));
        assertEquals("corr-a", described.get("correlation").getAsString());
        assertEquals(2, described.get("flags").getAsInt(), "TRITONSERVER_REQUEST_FLAG_SEQUENCE_END");
        assertEquals(JsonParser.parseString("[\"TEXT\"]"), described.get("requested"));
        assertEquals(JsonParser.parseString("{}"), described.get("parameters"));
    }

    @Test
    void isCancelledOnceTheRequestsTimeoutHasPassed()
    {
        final JsonObject described = describedBy(TestModels.await(core.submit(describe(1, -1)
            .timeoutMicros(50_000))));
        assertTrue(described.get("cancelled").getAsBoolean(), "the model slept 200 ms past a 50 ms timeout");
    }

    @Test
    void batchedRequestsAreHandedOverOneByOneWithTheirOwnRows()
    {
        final List<CompletableFuture<InferenceResponse>> futures = new ArrayList<>();
        final int[] rows = {1, 3, 2};
        for (int r = 0; r < rows.length; r++)
        {
            futures.add(core.submit(describe(rows[r], 10 * (r + 1)).id("batched-" + r)));
        }
        for (int r = 0; r < rows.length; r++)
        {
            try (InferenceResponse response = TestModels.await(futures.get(r)).throwIfError())
            {
                final JsonObject described = text(response);
                assertEquals("batched-" + r, described.get("id").getAsString());
                assertEquals(rows[r], response.output("ROWS").shape()[0], "its own rows");
                assertEquals(10 * (r + 1), response.output("ROWS").data().get(ValueLayout.JAVA_FLOAT, 0));
            }
        }
    }

    @Test
    void blsForwardsParametersIdAndCorrelationAndTakesTheModelNameAsBytes()
    {
        final byte[] name = "describe".getBytes(StandardCharsets.UTF_8);
        final MemorySegment target = MemorySegment.ofArray(new byte[4 + name.length]);
        target.set(ValueLayout.JAVA_INT_UNALIGNED, 0, name.length);
        MemorySegment.copy(name, 0, target, ValueLayout.JAVA_BYTE, 4, name.length);
        final InferenceRequest request = new InferenceRequest("forward").id("f1")
            .addInput("TARGET", DataType.BYTES, new long[] {1}, target);
        final JsonObject described = describedBy(TestModels.await(core.submit(request)));
        assertEquals("forwarded-f1", described.get("id").getAsString());
        assertEquals(JsonParser.parseString("{\"k\":\"v\",\"n\":3,\"b\":false}"), described.get("parameters"));
        assertEquals("corr-7", described.get("correlation").getAsString());
        assertEquals(2, described.get("flags").getAsInt());
    }

    private static InferenceRequest describe(final int rows, final float first)
    {
        final float[] values = new float[2 * rows];
        values[0] = first;
        for (int i = 1; i < values.length; i++)
        {
            values[i] = first;
        }
        return new InferenceRequest("describe").addInput("IN", DataType.FP32, new long[] {rows, 2},
            PythonTests.floats(values));
    }

    /** @return the TEXT output of a response, which it closes */
    private static JsonObject describedBy(final InferenceResponse received)
    {
        try (InferenceResponse response = received.throwIfError())
        {
            return text(response);
        }
    }

    private static JsonObject text(final InferenceResponse response)
    {
        return JsonParser.parseString(PythonTests.firstString(response, "TEXT")).getAsJsonObject();
    }
}
