package io.ingot.server.protocol;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.server.FrontendOptions;
import io.ingot.server.ServerFrontends;
import io.ingot.protocol.grpc.GRPCInferenceServiceGrpc;
import io.ingot.protocol.grpc.InferParameter;
import io.ingot.protocol.grpc.ModelInferRequest;
import io.ingot.protocol.grpc.ModelInferResponse;
import io.ingot.server.testing.InferResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The classification extension over HTTP and gRPC, against a model repository whose output names a
 * {@code label_filename}, with the results Triton gives (server src/classification.cc {@code TopkClassifications},
 * http_server.cc and grpc/infer_handler.h: BYTES tensor {@code [batch, K]} of {@code "value:index[:label]"}, values
 * printed by {@code std::to_string}; docs/protocol/extension_classification.md).
 */
class ClassificationExtensionTest
{
    @TempDir
    static Path repository;

    private static InferenceCore core;
    private static ServerFrontends frontends;
    private static HttpClient http;
    private static ManagedChannel channel;

    @BeforeAll
    static void start() throws IOException
    {
        model("cls", """
            name: "cls" backend: "identity" max_batch_size: 2
            input [{ name: "INPUT0" data_type: TYPE_FP32 dims: [4] }]
            output [{ name: "OUTPUT0" data_type: TYPE_FP32 dims: [4] label_filename: "labels.txt" }]
            """);
        Files.writeString(repository.resolve("cls/labels.txt"), "cat\ndog\nbird\n");
        model("cls_int", """
            name: "cls_int" backend: "identity" max_batch_size: 0
            input [{ name: "INPUT0" data_type: TYPE_INT32 dims: [5] }]
            output [{ name: "OUTPUT0" data_type: TYPE_INT32 dims: [5] }]
            """);
        model("cls_bytes", """
            name: "cls_bytes" backend: "identity" max_batch_size: 0
            input [{ name: "INPUT0" data_type: TYPE_STRING dims: [1] }]
            output [{ name: "OUTPUT0" data_type: TYPE_STRING dims: [1] }]
            """);
        core = InferenceCore.open(CoreOptions.builder().modelRepository(repository).build());
        frontends = ServerFrontends.start(core, FrontendOptions.defaults().withPorts(0, 0, -1));
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        channel = NettyChannelBuilder.forAddress("127.0.0.1", frontends.grpcPort()).usePlaintext().build();
    }

    private static void model(final String name, final String config) throws IOException
    {
        Files.createDirectories(repository.resolve(name).resolve("1"));
        Files.writeString(repository.resolve(name).resolve("config.pbtxt"), config);
    }

    @AfterAll
    static void stop() throws InterruptedException
    {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        frontends.close();
        core.close();
    }

    private static HttpResponse<byte[]> post(final String model, final String body) throws Exception
    {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + frontends.httpPort()
            + "/v2/models/" + model + "/infer")).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
            HttpResponse.BodyHandlers.ofByteArray());
    }

    private static final String TWO_ROWS = "{\"inputs\":[{\"name\":\"INPUT0\",\"datatype\":\"FP32\",\"shape\":[2,4],"
        + "\"data\":[0.1,0.7,0.2,0.0,5,1,3,3]}],\"outputs\":[{\"name\":\"OUTPUT0\",\"parameters\":{%s}}]}";

    private static List<String> strings(final JsonArray data)
    {
        final List<String> values = new ArrayList<>();
        for (final JsonElement element : data)
        {
            values.add(element.getAsString());
        }
        return values;
    }

    /** Splits a BYTES tensor (4-byte little-endian length before each element) into strings. */
    private static List<String> strings(final byte[] tensor)
    {
        final ByteBuffer buffer = ByteBuffer.wrap(tensor).order(ByteOrder.LITTLE_ENDIAN);
        final List<String> values = new ArrayList<>();
        while (buffer.hasRemaining())
        {
            final byte[] element = new byte[buffer.getInt()];
            buffer.get(element);
            values.add(new String(element, StandardCharsets.UTF_8));
        }
        return values;
    }

    @Test
    void httpJsonTopKPerBatchEntryWithLabels() throws Exception
    {
        final HttpResponse<byte[]> response = post("cls", TWO_ROWS.formatted("\"classification\":2"));
        final String text = new String(response.body(), StandardCharsets.UTF_8);
        assertEquals(200, response.statusCode(), text);
        final JsonObject output = JsonParser.parseString(text).getAsJsonObject().getAsJsonArray("outputs").get(0)
            .getAsJsonObject();
        assertEquals("BYTES", output.get("datatype").getAsString());
        assertEquals("[2,2]", output.get("shape").toString());
        // 0.7f prints as std::to_string((double) 0.7f) = "0.700000"; equal values keep index order; index 3 has no
        // label (the file has three lines), so it gets none.
        assertEquals(List.of("0.700000:1:dog", "0.200000:2:bird", "5.000000:0:cat", "3.000000:2:bird"),
            strings(output.getAsJsonArray("data")));
    }

    @Test
    void httpBinaryResultAndKLargerThanTheClasses() throws Exception
    {
        final HttpResponse<byte[]> response = post("cls", TWO_ROWS.formatted("\"classification\":9,"
            + "\"binary_data\":true"));
        final InferResult result = InferResult.of(response);
        assertEquals(200, result.status(), result.json().toString());
        assertEquals("[2,4]", result.output("OUTPUT0").get("shape").toString());
        assertEquals(List.of("0.700000:1:dog", "0.200000:2:bird", "0.100000:0:cat", "0.000000:3",
            "5.000000:0:cat", "3.000000:2:bird", "3.000000:3", "1.000000:1:dog"),
            strings(result.binary("OUTPUT0")));
    }

    @Test
    void integersPrintInDecimalAndANonBatchingModelHasOneRow() throws Exception
    {
        final HttpResponse<byte[]> response = post("cls_int", "{\"inputs\":[{\"name\":\"INPUT0\",\"datatype\":"
            + "\"INT32\",\"shape\":[5],\"data\":[-4,9,0,9,2]}],\"outputs\":[{\"name\":\"OUTPUT0\",\"parameters\":"
            + "{\"classification\":3}}]}");
        final String text = new String(response.body(), StandardCharsets.UTF_8);
        assertEquals(200, response.statusCode(), text);
        final JsonObject output = JsonParser.parseString(text).getAsJsonObject().getAsJsonArray("outputs").get(0)
            .getAsJsonObject();
        assertEquals("[3]", output.get("shape").toString());
        assertEquals(List.of("9:1", "9:3", "2:4"), strings(output.getAsJsonArray("data")));
    }

    @Test
    void refusalsCarryTritonsText() throws Exception
    {
        final HttpResponse<byte[]> bytes = post("cls_bytes", "{\"inputs\":[{\"name\":\"INPUT0\",\"datatype\":"
            + "\"BYTES\",\"shape\":[1],\"data\":[\"a\"]}],\"outputs\":[{\"name\":\"OUTPUT0\",\"parameters\":"
            + "{\"classification\":1}}]}");
        assertEquals(400, bytes.statusCode());
        assertTrue(new String(bytes.body(), StandardCharsets.UTF_8).contains("class result not available for output "
            + "due to unsupported type 'BYTES'"), new String(bytes.body(), StandardCharsets.UTF_8));

        // server src/http_server.cc ValidateOutputParameter, before the region is looked up.
        final HttpResponse<byte[]> shm = post("cls", TWO_ROWS.formatted("\"classification\":1,"
            + "\"shared_memory_region\":\"r\",\"shared_memory_byte_size\":64"));
        assertEquals(400, shm.statusCode());
        assertTrue(new String(shm.body(), StandardCharsets.UTF_8).contains("Output can't set both "
            + "'shared_memory_region' and 'classification'"), new String(shm.body(), StandardCharsets.UTF_8));

        // classification 0 is "not a classification" over HTTP, as in Triton (class_cnt_ > 0 decides).
        final HttpResponse<byte[]> zero = post("cls", TWO_ROWS.formatted("\"classification\":0"));
        assertEquals(200, zero.statusCode());
        assertTrue(new String(zero.body(), StandardCharsets.UTF_8).contains("\"datatype\":\"FP32\""));
    }

    private static ModelInferRequest grpcRequest(final InferParameter classification)
    {
        final ByteBuffer data = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
        for (final float value : new float[] {0.1f, 0.7f, 0.2f, 0f, 5f, 1f, 3f, 3f})
        {
            data.putFloat(value);
        }
        return ModelInferRequest.newBuilder().setModelName("cls")
            .addInputs(ModelInferRequest.InferInputTensor.newBuilder().setName("INPUT0").setDatatype("FP32")
                .addShape(2).addShape(4))
            .addRawInputContents(ByteString.copyFrom(data.array()))
            .addOutputs(ModelInferRequest.InferRequestedOutputTensor.newBuilder().setName("OUTPUT0")
                .putParameters("classification", classification))
            .build();
    }

    @Test
    void grpcTopKIsARawBytesOutput()
    {
        final ModelInferResponse response = GRPCInferenceServiceGrpc.newBlockingStub(channel)
            .modelInfer(grpcRequest(InferParameter.newBuilder().setInt64Param(3).build()));
        assertEquals("BYTES", response.getOutputs(0).getDatatype());
        assertEquals(List.of(2L, 3L), response.getOutputs(0).getShapeList());
        assertEquals(List.of("0.700000:1:dog", "0.200000:2:bird", "0.100000:0:cat", "5.000000:0:cat",
            "3.000000:2:bird", "3.000000:3"), strings(response.getRawOutputContents(0).toByteArray()));
    }

    @Test
    void grpcRefusesAZeroOrWronglyTypedCount()
    {
        final var stub = GRPCInferenceServiceGrpc.newBlockingStub(channel);
        // server src/grpc/grpc_utils.cc ParseClassificationParams
        final StatusRuntimeException zero = assertThrows(StatusRuntimeException.class,
            () -> stub.modelInfer(grpcRequest(InferParameter.newBuilder().setInt64Param(0).build())));
        assertEquals(Status.Code.INVALID_ARGUMENT, zero.getStatus().getCode());
        assertTrue(zero.getStatus().getDescription().startsWith("invalid value for 'classification' parameter, "
            + "expected >= 0"), zero.getStatus().getDescription());
        final StatusRuntimeException typed = assertThrows(StatusRuntimeException.class,
            () -> stub.modelInfer(grpcRequest(InferParameter.newBuilder().setStringParam("3").build())));
        assertTrue(typed.getStatus().getDescription().startsWith("invalid value type for 'classification' "
            + "parameter, expected int64_param"), typed.getStatus().getDescription());
    }

    @Test
    void serverMetadataAdvertisesClassification() throws Exception
    {
        final HttpResponse<String> metadata = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
            + frontends.httpPort() + "/v2")).build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(JsonParser.parseString(metadata.body()).getAsJsonObject().getAsJsonArray("extensions").toString()
            .contains("\"classification\""), metadata.body());
    }
}
