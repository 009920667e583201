package io.ingot.server.flow;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.protobuf.ByteString;
import io.ingot.api.CoreOptions;
import io.ingot.api.ModelControlMode;
import io.ingot.protocol.grpc.ModelInferRequest;
import io.ingot.protocol.grpc.ModelInferResponse;
import io.ingot.server.testing.ServingFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ensemble of the example repository ({@code examples/models/add_sub_pipeline}) served through the HTTP and
 * gRPC frontends: loaded by name in explicit mode (its composing models add_sub and identity with it), answered
 * with every step's result, listed in the repository index, and counted in the statistics in Triton's ensemble
 * shape.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EnsembleFlowTest
{
    private static final String MODEL = "add_sub_pipeline";

    private final ServingFixture server = new ServingFixture(CoreOptions.builder().modelRepository(examples())
        .controlMode(ModelControlMode.EXPLICIT).startupModel(MODEL).build(), UnaryOperator.identity());

    private static Path examples()
    {
        final Path root = Path.of(System.getProperty("ingot.examples", "../examples/models"));
        assertTrue(Files.isDirectory(root.resolve(MODEL)), root.toAbsolutePath() + " has no " + MODEL);
        return root;
    }

    @AfterAll
    void stop()
    {
        server.close();
    }

    private static float[] input0()
    {
        final float[] values = new float[16];
        for (int i = 0; i < 16; i++)
        {
            values[i] = i + 1;
        }
        return values;
    }

    private JsonObject json(final HttpResponse<byte[]> response)
    {
        final String text = new String(response.body(), StandardCharsets.UTF_8);
        assertEquals(200, response.statusCode(), text);
        return JsonParser.parseString(text).getAsJsonObject();
    }

    private static List<Float> data(final JsonObject body, final String output)
    {
        for (final var element : body.getAsJsonArray("outputs"))
        {
            final JsonObject tensor = element.getAsJsonObject();
            if (tensor.get("name").getAsString().equals(output))
            {
                final List<Float> values = new ArrayList<>();
                tensor.getAsJsonArray("data").forEach(v -> values.add(v.getAsFloat()));
                return values;
            }
        }
        throw new AssertionError("no output " + output + " in " + body);
    }

    @Test
    void httpInferRunsEveryStep()
    {
        final JsonArray ones = new JsonArray();
        final JsonArray counting = new JsonArray();
        for (final float value : input0())
        {
            counting.add(value);
            ones.add(1);
        }
        final String body = "{\"id\":\"h1\",\"inputs\":[{\"name\":\"INPUT0\",\"datatype\":\"FP32\",\"shape\":[1,16],"
            + "\"data\":" + counting + "},{\"name\":\"INPUT1\",\"datatype\":\"FP32\",\"shape\":[1,16],\"data\":"
            + ones + "}]}";
        final JsonObject result = json(server.post("/v2/models/" + MODEL + "/infer", body));
        assertEquals(MODEL, result.get("model_name").getAsString());
        assertEquals("h1", result.get("id").getAsString());
        final List<Float> sum = data(result, "SUM");
        final List<Float> twice0 = data(result, "TWICE0");
        final List<Float> twice1 = data(result, "TWICE1");
        for (int i = 0; i < 16; i++)
        {
            assertEquals(i + 2f, sum.get(i));
            assertEquals(2f * (i + 1), twice0.get(i));
            assertEquals(2f, twice1.get(i));
        }
    }

    @Test
    void grpcModelInferRunsEveryStep()
    {
        final ByteBuffer in0 = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        final ByteBuffer in1 = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        for (final float value : input0())
        {
            in0.putFloat(value);
            in1.putFloat(-value);
        }
        final ModelInferRequest request = ModelInferRequest.newBuilder().setModelName(MODEL).setId("g1")
            .addInputs(ModelInferRequest.InferInputTensor.newBuilder().setName("INPUT0").setDatatype("FP32")
                .addShape(1).addShape(16))
            .addInputs(ModelInferRequest.InferInputTensor.newBuilder().setName("INPUT1").setDatatype("FP32")
                .addShape(1).addShape(16))
            .addRawInputContents(ByteString.copyFrom(in0.array()))
            .addRawInputContents(ByteString.copyFrom(in1.array()))
            .addOutputs(ModelInferRequest.InferRequestedOutputTensor.newBuilder().setName("TWICE1"))
            .build();
        final ModelInferResponse response = server.grpc().modelInfer(request);
        assertEquals(MODEL, response.getModelName());
        assertEquals(1, response.getOutputsCount(), "only the requested output");
        assertEquals("TWICE1", response.getOutputs(0).getName());
        assertEquals(List.of(1L, 16L), response.getOutputs(0).getShapeList());
        final ByteBuffer twice1 = response.getRawOutputContents(0).asReadOnlyByteBuffer()
            .order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 16; i++)
        {
            assertEquals(-2f * (i + 1), twice1.getFloat(i * 4));
        }
    }

    @Test
    void theEnsembleAndItsComposingModelsAreReadyAndCounted()
    {
        final JsonObject metadata = json(server.get("/v2/models/" + MODEL));
        assertEquals("ensemble", metadata.get("platform").getAsString());
        final String index = new String(server.post("/v2/repository/index", "{\"ready\":true}").body(),
            StandardCharsets.UTF_8);
        for (final String model : List.of(MODEL, "add_sub", "identity"))
        {
            assertTrue(index.contains("{\"name\":\"" + model + "\",\"version\":\"1\",\"state\":\"READY\"}"), index);
            assertEquals(200, server.get("/v2/models/" + model + "/ready").statusCode(), model);
        }
        final String bad = "{\"inputs\":[{\"name\":\"INPUT0\",\"datatype\":\"FP32\",\"shape\":[1,15],\"data\":"
            + "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]},{\"name\":\"INPUT1\",\"datatype\":\"FP32\",\"shape\":[1,15],"
            + "\"data\":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]}]}";
        final HttpResponse<byte[]> refused = server.post("/v2/models/" + MODEL + "/infer", bad);
        assertEquals(400, refused.statusCode());
        assertTrue(new String(refused.body(), StandardCharsets.UTF_8).contains("'" + MODEL + "'"));
        httpInferRunsEveryStep();
        final JsonObject stats = json(server.get("/v2/models/" + MODEL + "/stats")).getAsJsonArray("model_stats")
            .get(0).getAsJsonObject();
        assertEquals(MODEL, stats.get("name").getAsString());
        assertTrue(stats.get("execution_count").getAsLong() >= 1, stats.toString());
        assertTrue(stats.getAsJsonObject("inference_stats").getAsJsonObject("success").get("count").getAsLong() >= 1);
    }
}
