package io.ingot.server.flow;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.protobuf.ByteString;
import io.ingot.protocol.grpc.GRPCInferenceServiceGrpc;
import io.ingot.protocol.grpc.InferParameter;
import io.ingot.protocol.grpc.ModelInferRequest;
import io.ingot.protocol.grpc.ModelInferResponse;
import io.ingot.protocol.grpc.ModelStreamInferResponse;
import io.ingot.server.testing.ServingFixture;
import io.grpc.stub.StreamObserver;
import io.ingot.server.testing.StreamResponses;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sequences as Triton's client examples send them ({@code simple_http_sequence_sync_infer_client.py},
 * {@code simple_grpc_sequence_stream_infer_client.py}): two sequences, IDs 1000 and 1001 (or string IDs), the
 * values 11, 7, 5, 3, 2, 0, 1 and their negations, START on the first request and END on the last, interleaved
 * request by request over HTTP and all in flight at once on one gRPC stream. The models are the built-in
 * {@code simple_sequence} ({@code (INPUT + START) * READY}) and {@code sequence_accumulator} (the running sum).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SequenceFlowTest
{
    private static final int[] VALUES = {11, 7, 5, 3, 2, 0, 1};

    private final ServingFixture server = new ServingFixture();

    @AfterAll
    void stop()
    {
        server.close();
    }

    private int httpInfer(final String model, final String id, final int index, final int value)
    {
        final String body = "{\"parameters\":{\"sequence_id\":" + id + ",\"sequence_start\":" + (index == 0)
            + ",\"sequence_end\":" + (index == VALUES.length - 1) + "},\"inputs\":[{\"name\":\"INPUT\","
            + "\"datatype\":\"INT32\",\"shape\":[1,1],\"data\":[" + value + "]}]}";
        final HttpResponse<byte[]> response = server.post("/v2/models/" + model + "/infer", body);
        final String text = new String(response.body(), StandardCharsets.UTF_8);
        assertEquals(200, response.statusCode(), text);
        final JsonObject json = JsonParser.parseString(text).getAsJsonObject();
        return json.getAsJsonArray("outputs").get(0).getAsJsonObject().getAsJsonArray("data").get(0).getAsInt();
    }

    @Test
    void httpSequencesInterleavedRequestByRequestGetTheirOwnSums()
    {
        final List<Integer> first = new ArrayList<>();
        final List<Integer> second = new ArrayList<>();
        for (int i = 0; i < VALUES.length; i++)
        {
            first.add(httpInfer("sequence_accumulator", "1000", i, VALUES[i]));
            second.add(httpInfer("sequence_accumulator", "\"1001\"", i, -VALUES[i]));
        }
        assertEquals(List.of(11, 18, 23, 26, 28, 28, 29), first);
        assertEquals(List.of(-11, -18, -23, -26, -28, -28, -29), second);
    }

    @Test
    void httpSimpleSequenceAddsStartOnTheFirstRequestOnly()
    {
        final List<Integer> outputs = new ArrayList<>();
        for (int i = 0; i < VALUES.length; i++)
        {
            outputs.add(httpInfer("simple_sequence", "18446744073709551615", i, VALUES[i]));
        }
        assertEquals(List.of(12, 7, 5, 3, 2, 0, 1), outputs);
    }

    @Test
    void httpRequestWithoutStartForAnUnknownSequenceGetsTritonsError()
    {
        final String body = "{\"parameters\":{\"sequence_id\":4242},\"inputs\":[{\"name\":\"INPUT\","
            + "\"datatype\":\"INT32\",\"shape\":[1,1],\"data\":[1]}]}";
        final HttpResponse<byte[]> response = server.post("/v2/models/simple_sequence/infer", body);
        final String text = new String(response.body(), StandardCharsets.UTF_8);
        assertEquals(400, response.statusCode(), text);
        assertTrue(text.contains("inference request for sequence 4242 to model 'simple_sequence' must specify the "
            + "START flag on the first request of the sequence"), text);
        final HttpResponse<byte[]> noId = server.post("/v2/models/simple_sequence/infer", body.replace(
            "\"sequence_id\":4242", "\"sequence_start\":true"));
        assertEquals(400, noId.statusCode());
        assertTrue(new String(noId.body(), StandardCharsets.UTF_8).contains("must specify a non-zero or non-empty "
            + "correlation ID"));
    }

    private static ModelInferRequest grpcRequest(final String id, final long sequence, final int index,
        final int value)
    {
        return ModelInferRequest.newBuilder().setModelName("sequence_accumulator").setId(id)
            .putParameters("sequence_id", InferParameter.newBuilder().setInt64Param(sequence).build())
            .putParameters("sequence_start", InferParameter.newBuilder().setBoolParam(index == 0).build())
            .putParameters("sequence_end", InferParameter.newBuilder().setBoolParam(index == VALUES.length - 1)
                .build())
            .addInputs(ModelInferRequest.InferInputTensor.newBuilder().setName("INPUT").setDatatype("INT32")
                .addShape(1).addShape(1))
            .addRawInputContents(ByteString.copyFrom(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN)
                .putInt(value).array()))
            .build();
    }

    private static int grpcOutput(final ModelInferResponse response)
    {
        return response.getRawOutputContents(0).asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN).getInt(0);
    }

    @Test
    void grpcStreamWithBothSequencesInFlightAtOnce() throws InterruptedException
    {
        final StreamResponses collected = new StreamResponses();
        final StreamObserver<ModelInferRequest> stream = GRPCInferenceServiceGrpc.newStub(server.channel())
            .modelStreamInfer(collected);
        final Map<String, ModelStreamInferResponse> responses = collected.byId();
        for (int i = 0; i < VALUES.length; i++)
        {
            stream.onNext(grpcRequest("a" + i, 2000, i, VALUES[i]));
            stream.onNext(grpcRequest("b" + i, -5, i, -VALUES[i]));
        }
        stream.onCompleted();
        assertTrue(collected.awaitEnd(60), "the stream did not complete");
        assertNull(collected.failure());
        int sum = 0;
        for (int i = 0; i < VALUES.length; i++)
        {
            sum += VALUES[i];
            assertEquals("", responses.get("a" + i).getErrorMessage());
            assertEquals(sum, grpcOutput(responses.get("a" + i).getInferResponse()), "sequence 2000, request " + i);
            assertEquals(-sum, grpcOutput(responses.get("b" + i).getInferResponse()), "sequence 2^64 - 5, " + i);
        }
    }
}
