package io.ingot.server.flow;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceRequest;
import io.ingot.protocol.grpc.InferParameter;
import io.ingot.protocol.grpc.ModelInferRequest;
import io.ingot.protocol.grpc.ModelInferResponse;
import io.ingot.protocol.grpc.ModelStreamInferResponse;
import io.ingot.server.testing.ExampleModels;
import io.ingot.server.testing.ServingFixture;
import io.ingot.server.testing.StreamResponses;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A decoupled model through the frontends, as Triton's {@code simple_grpc_custom_repeat} example and its
 * {@code L0_decoupled} tests use it: the example {@code repeat_int32} answers one {@code ModelStreamInfer} request
 * with one response per element, each flagged {@code triton_final_response: false}, its flags-only final dropped
 * unless the request sets {@code triton_enable_empty_final_response}; HTTP {@code /infer} and unary
 * {@code ModelInfer} get Triton's errors; a one-response model on the same stream gets its responses marked final.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DecoupledFlowTest
{
    private final ServingFixture server = new ServingFixture(CoreOptions.builder()
        .model(ExampleModels.config("repeat_int32"))
        .model(TestModels.config("name: 'identity_int' backend: 'identity' max_batch_size: 0"
            + " input [{ name: 'INPUT0' data_type: TYPE_INT32 dims: [1] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_INT32 dims: [1] }]"))
        .build(), UnaryOperator.identity());

    @AfterAll
    void stop()
    {
        server.close();
    }

    private static ByteString le(final int... values)
    {
        final ByteBuffer buffer = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (final int value : values)
        {
            buffer.putInt(value);
        }
        return ByteString.copyFrom(buffer.array());
    }

    /** What {@code simple_grpc_custom_repeat.py} sends: IN, DELAY (ms) and WAIT (ms) as raw contents. */
    private static ModelInferRequest.Builder repeat(final String id, final int[] in, final int[] delay)
    {
        return ModelInferRequest.newBuilder().setModelName("repeat_int32").setId(id)
            .addInputs(ModelInferRequest.InferInputTensor.newBuilder().setName("IN").setDatatype("INT32")
                .addShape(in.length))
            .addInputs(ModelInferRequest.InferInputTensor.newBuilder().setName("DELAY").setDatatype("UINT32")
                .addShape(delay.length))
            .addInputs(ModelInferRequest.InferInputTensor.newBuilder().setName("WAIT").setDatatype("UINT32")
                .addShape(1))
            .addRawInputContents(le(in)).addRawInputContents(le(delay)).addRawInputContents(le(0));
    }

    private static InferParameter bool(final boolean value)
    {
        return InferParameter.newBuilder().setBoolParam(value).build();
    }

    private static int value(final ModelInferResponse response, final String output)
    {
        for (int i = 0; i < response.getOutputsCount(); i++)
        {
            if (response.getOutputs(i).getName().equals(output))
            {
                return response.getRawOutputContents(i).asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN)
                    .getInt(0);
            }
        }
        throw new AssertionError("no output " + output + " in " + response);
    }

    private static boolean isFinal(final ModelStreamInferResponse response)
    {
        return response.getInferResponse().getParametersOrThrow("triton_final_response").getBoolParam();
    }

    private List<ModelStreamInferResponse> stream(final ModelInferRequest... requests) throws InterruptedException
    {
        final StreamResponses collected = new StreamResponses();
        final StreamObserver<ModelInferRequest> stream = server.grpcAsync().modelStreamInfer(collected);
        for (final ModelInferRequest request : requests)
        {
            stream.onNext(request);
        }
        stream.onCompleted();
        assertTrue(collected.awaitEnd(60), "the stream did not end");
        assertEquals(null, collected.failure());
        return collected.all();
    }

    @Test
    void oneStreamedRequestGetsOneResponsePerElementAndTheEmptyFinalIsDroppedByDefault() throws Exception
    {
        final int[] in = {10, 11, 12, 13};
        final List<ModelStreamInferResponse> responses = stream(repeat("r", in, new int[] {5, 0, 10, 0}).build());
        assertEquals(in.length, responses.size(), responses.toString());
        for (int e = 0; e < in.length; e++)
        {
            final ModelStreamInferResponse response = responses.get(e);
            assertEquals("", response.getErrorMessage());
            assertEquals("r", response.getInferResponse().getId());
            assertEquals(in[e], value(response.getInferResponse(), "OUT"));
            assertEquals(e, value(response.getInferResponse(), "IDX"));
            assertFalse(isFinal(response), "response " + e + " is not the final: the final came as flags alone");
        }
    }

    @Test
    void whatSimpleGrpcCustomRepeatSendsGetsTheTenResponsesItChecks() throws Exception
    {
        // simple_grpc_custom_repeat.py: IN = 100..109, DELAY and WAIT (shortened here from its 1000 ms), only OUT.
        final int[] in = new int[10];
        final int[] delay = new int[10];
        for (int i = 0; i < in.length; i++)
        {
            in[i] = 100 + i;
            delay[i] = 2;
        }
        final ModelInferRequest request = repeat("", in, delay)
            .setRawInputContents(2, le(20))
            .addOutputs(ModelInferRequest.InferRequestedOutputTensor.newBuilder().setName("OUT")).build();
        final List<ModelStreamInferResponse> responses = stream(request);
        assertEquals(10, responses.size(), responses.toString());
        for (int i = 0; i < responses.size(); i++)
        {
            final ModelInferResponse response = responses.get(i).getInferResponse();
            assertEquals(1, response.getOutputsCount(), "only the requested OUT");
            assertEquals(100 + i, value(response, "OUT"));
        }
    }

    @Test
    void enableEmptyFinalResponseTurnsTheFlagsOnlyFinalIntoAnEmptyFinalResponse() throws Exception
    {
        final List<ModelStreamInferResponse> responses = stream(repeat("e", new int[] {1, 2}, new int[] {0, 0})
            .putParameters("triton_enable_empty_final_response", bool(true)).build(),
            repeat("z", new int[0], new int[0]).putParameters("triton_enable_empty_final_response", bool(true))
                .build());
        final List<ModelStreamInferResponse> e = responses.stream()
            .filter(r -> r.getInferResponse().getId().equals("e")).toList();
        assertEquals(3, e.size(), e.toString());
        assertFalse(isFinal(e.get(0)));
        assertFalse(isFinal(e.get(1)));
        final ModelInferResponse last = e.get(2).getInferResponse();
        assertTrue(isFinal(e.get(2)));
        assertEquals(0, last.getOutputsCount());
        assertEquals("repeat_int32", last.getModelName());
        assertEquals("", e.get(2).getErrorMessage());
        // An empty IN: no response at all but the empty final.
        final List<ModelStreamInferResponse> z = responses.stream()
            .filter(r -> r.getInferResponse().getId().equals("z")).toList();
        assertEquals(1, z.size(), z.toString());
        assertTrue(isFinal(z.getFirst()));
    }

    @Test
    void aOneResponseModelOnTheStreamIsMarkedFinalAndBadParameterTypesAreTritonsErrors() throws Exception
    {
        final ModelInferRequest identity = ModelInferRequest.newBuilder().setModelName("identity_int").setId("i")
            .addInputs(ModelInferRequest.InferInputTensor.newBuilder().setName("INPUT0").setDatatype("INT32")
                .addShape(1))
            .addRawInputContents(le(7)).build();
        final ModelInferRequest badFlag = repeat("b", new int[] {1}, new int[] {0})
            .putParameters("triton_enable_empty_final_response", InferParameter.newBuilder().setInt64Param(1)
                .build()).build();
        final List<ModelStreamInferResponse> responses = stream(identity, badFlag);
        assertEquals(2, responses.size(), responses.toString());
        final ModelStreamInferResponse one = responses.stream()
            .filter(r -> r.getInferResponse().getId().equals("i")).findFirst().orElseThrow();
        assertEquals(7, value(one.getInferResponse(), "OUTPUT0"));
        assertTrue(isFinal(one));
        final ModelStreamInferResponse bad = responses.stream()
            .filter(r -> r.getInferResponse().getId().equals("b")).findFirst().orElseThrow();
        assertEquals("invalid value type for 'triton_enable_empty_final_response' parameter, expected bool_param.",
            bad.getErrorMessage());
    }

    @Test
    void aRequestTheModelRefusesGetsItsErrorAsTheFinalInTheStream() throws Exception
    {
        final List<ModelStreamInferResponse> responses = stream(repeat("m", new int[] {1, 2}, new int[] {0})
            .build());
        assertEquals(1, responses.size(), responses.toString());
        assertEquals("expected IN and DELAY shape to match, got [2] and [1]", responses.getFirst().getErrorMessage());
        assertEquals("m", responses.getFirst().getInferResponse().getId());
        assertTrue(isFinal(responses.getFirst()));
    }

    @Test
    void aClientThatCancelsItsStreamCancelsTheRequestStillStreaming() throws Exception
    {
        final long executed = executions();
        final StreamResponses collected = new StreamResponses();
        final ClientCallStreamObserver<ModelInferRequest> stream = (ClientCallStreamObserver<ModelInferRequest>)
            server.grpcAsync().modelStreamInfer(collected);
        // The second response is ten minutes away: only the cancellation can end the execution in time.
        stream.onNext(repeat("c", new int[] {1, 2}, new int[] {0, 600_000}).build());
        for (int i = 0; i < 2000 && collected.all().isEmpty(); i++)
        {
            Thread.sleep(5);
        }
        assertEquals(1, collected.all().size(), "the first response arrives before the second is due");
        stream.cancel("the client leaves", null);
        for (int i = 0; i < 4000 && executions() == executed; i++)
        {
            Thread.sleep(5);
        }
        assertEquals(executed + 1, executions(), "the cancelled request's execution ended early");
    }

    private long executions()
    {
        return server.core().modelStatistics("repeat_int32", InferenceRequest.DEFAULT_VERSION).getFirst()
            .executionCount();
    }

    @Test
    void httpInferOnADecoupledModelGetsTritons501()
    {
        final HttpResponse<byte[]> response = server.post("/v2/models/repeat_int32/infer",
            "{\"inputs\":[{\"name\":\"IN\",\"datatype\":\"INT32\",\"shape\":[1],\"data\":[1]},"
                + "{\"name\":\"DELAY\",\"datatype\":\"UINT32\",\"shape\":[1],\"data\":[0]},"
                + "{\"name\":\"WAIT\",\"datatype\":\"UINT32\",\"shape\":[1],\"data\":[0]}]}");
        assertEquals(501, response.statusCode());
        assertEquals("{\"error\":\"HTTP end point doesn't support models with decoupled transaction policy\"}",
            new String(response.body(), StandardCharsets.UTF_8));
    }

    @Test
    void unaryModelInferOnADecoupledModelGetsTritonsUnimplemented()
    {
        final StatusRuntimeException failure = assertThrows(StatusRuntimeException.class,
            () -> server.grpc().modelInfer(repeat("u", new int[] {1}, new int[] {0}).build()));
        assertEquals(Status.Code.UNIMPLEMENTED, failure.getStatus().getCode());
        assertEquals("ModelInfer RPC doesn't support models with decoupled transaction policy",
            failure.getStatus().getDescription());
    }
}
