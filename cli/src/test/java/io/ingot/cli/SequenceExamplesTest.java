package io.ingot.cli;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.ModelControlMode;
import io.ingot.server.FrontendOptions;
import io.ingot.server.ServerFrontends;
import io.ingot.protocol.grpc.GRPCInferenceServiceGrpc;
import io.ingot.protocol.grpc.InferParameter;
import io.ingot.protocol.grpc.ModelInferRequest;
import io.ingot.protocol.grpc.ModelStreamInferResponse;
import io.ingot.testing.ThreadDumps;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ONNX sequence models of {@code examples/models} served over HTTP and gRPC as {@code ingot serve} serves them,
 * driven the way Triton's client examples drive {@code simple_sequence}:
 * {@code simple_http_sequence_sync_infer_client.py} (sequences 1000 and 1001 sent one after the other, then a UUID
 * string ID; values {@code [0] + [11, 7, 5, 3, 2, 0, 1]}, {@code [100]} and {@code [20]} followed by the negations;
 * START on the first request, END on the last) and {@code simple_grpc_sequence_stream_infer_client.py} (both
 * sequences on one stream, all requests in flight). The expected values are the clients' own checks: {@code 1}
 * (resp. {@code 101}, {@code 21}) first, then each value as
 * sent. The implicit-state accumulator answers its running sum on the same stream.
 */
class SequenceExamplesTest
{
    private static final Path EXAMPLES = Path.of("..", "examples", "models").toAbsolutePath().normalize();
    private static final int[] VALUES = {11, 7, 5, 3, 2, 0, 1};

    private static InferenceCore core;
    private static ServerFrontends frontends;
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /** The one OUTPUT element of a KServe v2 JSON response (this module has no JSON library of its own). */
    private static final Pattern OUTPUT_DATA = Pattern.compile("\"data\"\\s*:\\s*\\[\\s*(-?\\d+)\\s*]");

    @BeforeAll
    static void serve()
    {
        core = InferenceCore.open(CoreOptions.builder().modelRepository(EXAMPLES).controlMode(ModelControlMode.EXPLICIT)
            .startupModel("simple_sequence").startupModel("sequence_accumulator_onnx").build());
        assertTrue(core.isModelReady("simple_sequence", -1) && core.isModelReady("sequence_accumulator_onnx", -1),
            () -> core.repositoryIndex(false).toString());
        frontends = ServerFrontends.start(core, FrontendOptions.defaults().withPorts(0, 0, -1));
    }

    @AfterAll
    static void stop()
    {
        if (frontends != null)
        {
            frontends.close();
            frontends = null;
        }
        if (core != null)
        {
            core.close();
            core = null;
        }
    }

    private static int[] sent(final int first, final int sign)
    {
        final int[] values = new int[VALUES.length + 1];
        values[0] = first;
        for (int i = 0; i < VALUES.length; i++)
        {
            values[i + 1] = sign * VALUES[i];
        }
        return values;
    }

    private static List<Integer> expected(final int first, final int sign)
    {
        final List<Integer> expected = new ArrayList<>(List.of(first + 1));
        for (final int value : VALUES)
        {
            expected.add(sign * value);
        }
        return expected;
    }

    /** As the HTTP client's {@code sync_send}: one request at a time, the JSON ID as given (a number or a string). */
    private static List<Integer> httpSequence(final String jsonId, final int[] values) throws Exception
    {
        final List<Integer> outputs = new ArrayList<>();
        for (int i = 0; i < values.length; i++)
        {
            final String body = "{\"parameters\":{\"sequence_id\":" + jsonId + ",\"sequence_start\":" + (i == 0)
                + ",\"sequence_end\":" + (i == values.length - 1) + "},\"inputs\":[{\"name\":\"INPUT\",\"datatype\":"
                + "\"INT32\",\"shape\":[1,1],\"data\":[" + values[i] + "]}],\"outputs\":[{\"name\":\"OUTPUT\"}]}";
            final HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + frontends.httpPort() + "/v2/models/simple_sequence/infer"))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), response.body());
            final Matcher data = OUTPUT_DATA.matcher(response.body());
            assertTrue(data.find(), response.body());
            outputs.add(Integer.parseInt(data.group(1)));
        }
        return outputs;
    }

    @Test
    void httpSequencesGetWhatTritonsSyncClientChecks() throws Exception
    {
        assertEquals(expected(0, 1), httpSequence("1000", sent(0, 1)));
        assertEquals(expected(100, -1), httpSequence("1001", sent(100, -1)));
        assertEquals(expected(20, -1), httpSequence("\"" + UUID.randomUUID() + "\"", sent(20, -1)));
    }

    private static ModelInferRequest grpcRequest(final String model, final String id, final long sequence,
        final int index, final int[] values)
    {
        return ModelInferRequest.newBuilder().setModelName(model).setId(id)
            .putParameters("sequence_id", InferParameter.newBuilder().setInt64Param(sequence).build())
            .putParameters("sequence_start", InferParameter.newBuilder().setBoolParam(index == 0).build())
            .putParameters("sequence_end", InferParameter.newBuilder().setBoolParam(index == values.length - 1)
                .build())
            .addInputs(ModelInferRequest.InferInputTensor.newBuilder().setName("INPUT").setDatatype("INT32")
                .addShape(1).addShape(1))
            .addRawInputContents(ByteString.copyFrom(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN)
                .putInt(values[index]).array()))
            .build();
    }

    /** Sends two sequences of {@code model} on one stream, all requests at once; returns the outputs by request ID. */
    private static Map<String, Integer> grpcStream(final String model, final int[] first, final int[] second)
        throws InterruptedException
    {
        final ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", frontends.grpcPort())
            .usePlaintext().build();
        try
        {
            final Map<String, Integer> outputs = new ConcurrentHashMap<>();
            final CountDownLatch done = new CountDownLatch(1);
            final StreamObserver<ModelInferRequest> stream = GRPCInferenceServiceGrpc.newStub(channel)
                .modelStreamInfer(new StreamObserver<>()
                {
                    @Override
                    public void onNext(final ModelStreamInferResponse response)
                    {
                        assertEquals("", response.getErrorMessage());
                        outputs.put(response.getInferResponse().getId(), response.getInferResponse()
                            .getRawOutputContents(0).asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN).getInt(0));
                    }

                    @Override
                    public void onError(final Throwable failure)
                    {
                        done.countDown();
                    }

                    @Override
                    public void onCompleted()
                    {
                        done.countDown();
                    }
                });
            for (int i = 0; i < first.length; i++)
            {
                stream.onNext(grpcRequest(model, "a" + i, 1000, i, first));
                stream.onNext(grpcRequest(model, "b" + i, 1001, i, second));
            }
            stream.onCompleted();
            assertTrue(done.await(60, TimeUnit.SECONDS), () -> "the stream did not complete; answered: "
                + outputs.keySet() + "; statistics: " + core.modelStatistics(model, -1) + "; threads:"
                + ThreadDumps.of("ingot-"));
            assertEquals(2 * first.length, outputs.size(), outputs.toString());
            return outputs;
        }
        finally
        {
            channel.shutdownNow();
        }
    }

    @Test
    void grpcStreamGetsWhatTritonsStreamClientChecks() throws Exception
    {
        final Map<String, Integer> outputs = grpcStream("simple_sequence", sent(0, 1), sent(100, -1));
        final List<Integer> first = expected(0, 1);
        final List<Integer> second = expected(100, -1);
        for (int i = 0; i < first.size(); i++)
        {
            assertEquals(first.get(i), outputs.get("a" + i), "sequence 1000, request " + i);
            assertEquals(second.get(i), outputs.get("b" + i), "sequence 1001, request " + i);
        }
    }

    @Test
    void grpcStreamToTheImplicitStateAccumulatorGetsRunningSums() throws Exception
    {
        for (int round = 0; round < 3; round++)
        {
            final Map<String, Integer> outputs = grpcStream("sequence_accumulator_onnx", sent(0, 1), sent(100, -1));
            int first = 0;
            int second = 0;
            final int[] a = sent(0, 1);
            final int[] b = sent(100, -1);
            for (int i = 0; i < a.length; i++)
            {
                first += a[i];
                second += b[i];
                assertEquals(first, outputs.get("a" + i), "round " + round + ", sequence 1000, request " + i);
                assertEquals(second, outputs.get("b" + i), "round " + round + ", sequence 1001, request " + i);
            }
        }
    }
}
