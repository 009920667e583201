package io.ingot.server.http;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.ingot.api.CoreOptions;
import io.ingot.api.ModelControlMode;
import io.ingot.protocol.grpc.ModelConfigRequest;
import io.ingot.protocol.grpc.ModelReadyRequest;
import io.ingot.protocol.grpc.ModelRepositoryParameter;
import io.ingot.protocol.grpc.RepositoryIndexRequest;
import io.ingot.protocol.grpc.RepositoryModelLoadRequest;
import io.ingot.protocol.grpc.RepositoryModelUnloadRequest;
import io.ingot.server.testing.ServingFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Triton's model-repository extension over HTTP and gRPC against a repository on disk: load with a {@code config}
 * override and {@code file:} contents, unload with {@code unload_dependents}, the index, and the wrong mode.
 */
class RepositoryControlTest
{
    private static final String CONFIG = """
        backend: "identity" max_batch_size: 8
        input [{ name: "INPUT0" data_type: TYPE_FP32 dims: [-1] }]
        output [{ name: "OUTPUT0" data_type: TYPE_FP32 dims: [-1] }]
        """;

    private static final String OVERRIDE = "{\"backend\":\"identity\",\"max_batch_size\":16,"
        + "\"input\":[{\"name\":\"INPUT0\",\"data_type\":\"TYPE_FP32\",\"dims\":[-1]}],"
        + "\"output\":[{\"name\":\"OUTPUT0\",\"data_type\":\"TYPE_FP32\",\"dims\":[-1]}]}";

    private static final long DEFAULT_BOUND = CoreOptions.DEFAULT_MAX_MODEL_OVERRIDE_BYTES;

    private static ServingFixture serve(final Path repo, final ModelControlMode mode, final long overrideBound)
        throws IOException
    {
        Files.createDirectories(repo.resolve("simple/1"));
        Files.writeString(repo.resolve("simple/config.pbtxt"), CONFIG);
        return new ServingFixture(CoreOptions.builder().modelRepository(repo).controlMode(mode)
            .startupModel("simple").maxModelOverrideBytes(overrideBound).build(), UnaryOperator.identity());
    }

    private static String body(final HttpResponse<byte[]> response)
    {
        return new String(response.body(), StandardCharsets.UTF_8);
    }

    private static String error(final HttpResponse<byte[]> response)
    {
        return JsonParser.parseString(body(response)).getAsJsonObject().get("error").getAsString();
    }

    private static String quoted(final String json)
    {
        return "\"" + json.replace("\"", "\\\"") + "\"";
    }

    @Test
    void httpLoadWithConfigAndFileOverridesServesThem(@TempDir final Path repo) throws IOException
    {
        try (ServingFixture server = serve(repo, ModelControlMode.EXPLICIT, DEFAULT_BOUND))
        {
            final HttpResponse<byte[]> load = server.post("/v2/repository/models/simple/load",
                "{\"parameters\":{\"config\":" + quoted(OVERRIDE) + "}}");
            assertEquals(200, load.statusCode(), body(load));
            final JsonObject config = JsonParser.parseString(body(server.get("/v2/models/simple/config")))
                .getAsJsonObject();
            assertEquals(16, config.get("max_batch_size").getAsInt(), config.toString());

            final String content = Base64.getEncoder().encodeToString("weights".getBytes(StandardCharsets.UTF_8));
            final HttpResponse<byte[]> files = server.post("/v2/repository/models/simple_copy/load",
                "{\"parameters\":{\"config\":" + quoted(OVERRIDE) + ",\"file:7/model.bin\":\"" + content + "\"}}");
            assertEquals(200, files.statusCode(), body(files));
            assertEquals(200, server.get("/v2/models/simple_copy/versions/7/ready").statusCode());

            final HttpResponse<byte[]> noConfig = server.post("/v2/repository/models/other/load",
                "{\"parameters\":{\"file:1/model.bin\":\"" + content + "\"}}");
            assertEquals(500, noConfig.statusCode());
            assertEquals("failed to load 'other', failed to poll from model repository: Load parameter 'config' "
                + "must be specified for model file override", error(noConfig));
            final HttpResponse<byte[]> notBase64 = server.post("/v2/repository/models/other/load",
                "{\"parameters\":{\"config\":" + quoted(OVERRIDE) + ",\"file:1/model.bin\":\"!!\"}}");
            assertEquals(400, notBase64.statusCode());
            assertTrue(error(notBase64).startsWith("load parameter 'file:1/model.bin' of model 'other' must hold "
                + "base64 content"), error(notBase64));
            final HttpResponse<byte[]> unknown = server.post("/v2/repository/models/other/load",
                "{\"parameters\":{\"priority\":\"1\"}}");
            assertEquals(500, unknown.statusCode());
            assertTrue(error(unknown).startsWith("unexpected error on creating Triton parameter"), error(unknown));

            final HttpResponse<byte[]> unload = server.post("/v2/repository/models/simple_copy/unload",
                "{\"parameters\":{\"unload_dependents\":true}}");
            assertEquals(200, unload.statusCode(), body(unload));
            final HttpResponse<byte[]> badFlag = server.post("/v2/repository/models/simple/unload",
                "{\"parameters\":{\"unload_dependents\":\"yes\"}}");
            assertEquals(400, badFlag.statusCode());
            assertTrue(error(badFlag).startsWith("Unable to parse 'unload_dependents'"), error(badFlag));

            final JsonArray index = JsonParser.parseString(body(server.post("/v2/repository/index", "")))
                .getAsJsonArray();
            assertEquals(JsonParser.parseString("[{\"name\":\"simple\",\"version\":\"1\",\"state\":\"READY\"},"
                + "{\"name\":\"simple_copy\",\"version\":\"7\",\"state\":\"UNAVAILABLE\",\"reason\":\"unloaded\"}]"),
                index, "as Triton's index: the unloaded version with reason 'unloaded'");
        }
    }

    @Test
    void oversizeOverridesGetTheirOwnErrorAndTheServingModelStays(@TempDir final Path repo) throws IOException
    {
        try (ServingFixture server = serve(repo, ModelControlMode.EXPLICIT, 64))
        {
            final HttpResponse<byte[]> load = server.post("/v2/repository/models/simple/load",
                "{\"parameters\":{\"config\":" + quoted(OVERRIDE) + "}}");
            assertEquals(400, load.statusCode());
            assertEquals("failed to load 'simple': the overrides of the load request hold " + OVERRIDE.length()
                + " bytes, more than the limit of 64 bytes (CoreOptions.maxModelOverrideBytes)", error(load));
            assertEquals(200, server.get("/v2/models/simple/ready").statusCode());
            assertEquals(8, server.grpc().modelConfig(ModelConfigRequest.newBuilder().setName("simple").build())
                .getConfig().getMaxBatchSize());
        }
    }

    @Test
    void grpcLoadTakesConfigAsStringAndFilesAsBytes(@TempDir final Path repo) throws IOException
    {
        try (ServingFixture server = serve(repo, ModelControlMode.EXPLICIT, DEFAULT_BOUND))
        {
            server.grpc().repositoryModelLoad(RepositoryModelLoadRequest.newBuilder().setModelName("simple")
                .putParameters("config", ModelRepositoryParameter.newBuilder().setStringParam(OVERRIDE).build())
                .putParameters("file:2/model.bin", ModelRepositoryParameter.newBuilder()
                    .setBytesParam(ByteString.copyFromUtf8("weights")).build())
                .build());
            assertTrue(server.grpc().modelReady(ModelReadyRequest.newBuilder().setName("simple").setVersion("2")
                .build()).getReady());
            assertFalse(server.core().isModelReady("simple", 1), "the file override replaces the repository's "
                + "directory");
            assertEquals(16, server.grpc().modelConfig(ModelConfigRequest.newBuilder().setName("simple").build())
                .getConfig().getMaxBatchSize());

            final StatusRuntimeException wrongType = assertThrows(StatusRuntimeException.class, () -> server.grpc()
                .repositoryModelLoad(RepositoryModelLoadRequest.newBuilder().setModelName("simple")
                    .putParameters("config", ModelRepositoryParameter.newBuilder().setBoolParam(true).build())
                    .build()));
            assertEquals(Status.Code.INVALID_ARGUMENT, wrongType.getStatus().getCode());
            assertEquals("invalid value type for load parameter 'config', expected string_param.",
                wrongType.getStatus().getDescription());
            final StatusRuntimeException badFlag = assertThrows(StatusRuntimeException.class, () -> server.grpc()
                .repositoryModelUnload(RepositoryModelUnloadRequest.newBuilder().setModelName("simple")
                    .putParameters("unload_dependents", ModelRepositoryParameter.newBuilder().setStringParam("x")
                        .build()).build()));
            assertEquals("invalid value type for 'unload_dependents' parameter, expected bool_param.",
                badFlag.getStatus().getDescription());

            server.grpc().repositoryModelUnload(RepositoryModelUnloadRequest.newBuilder().setModelName("simple")
                .putParameters("unload_dependents", ModelRepositoryParameter.newBuilder().setBoolParam(true).build())
                .build());
            final var entry = server.grpc().repositoryIndex(RepositoryIndexRequest.getDefaultInstance())
                .getModels(0);
            assertEquals("simple", entry.getName());
            assertEquals("2", entry.getVersion());
            assertEquals("UNAVAILABLE", entry.getState());
            assertEquals("unloaded", entry.getReason());
        }
    }

    @Test
    void loadAndUnloadInPollModeAnswerTritonsTextOnBothProtocols(@TempDir final Path repo) throws IOException
    {
        try (ServingFixture server = serve(repo, ModelControlMode.POLL, DEFAULT_BOUND))
        {
            final HttpResponse<byte[]> load = server.post("/v2/repository/models/simple/load",
                "{\"parameters\":{\"config\":" + quoted(OVERRIDE) + "}}");
            assertEquals(503, load.statusCode());
            assertEquals("explicit model load / unload is not allowed if polling is enabled", error(load));
            final HttpResponse<byte[]> unload = server.post("/v2/repository/models/simple/unload", "");
            assertEquals(503, unload.statusCode());
            assertEquals("explicit model load / unload is not allowed if polling is enabled", error(unload));
            final StatusRuntimeException grpc = assertThrows(StatusRuntimeException.class, () -> server.grpc()
                .repositoryModelLoad(RepositoryModelLoadRequest.newBuilder().setModelName("simple").build()));
            assertEquals(Status.Code.UNAVAILABLE, grpc.getStatus().getCode());
            assertEquals("explicit model load / unload is not allowed if polling is enabled",
                grpc.getStatus().getDescription());
            assertEquals(200, server.get("/v2/models/simple/ready").statusCode());
        }
    }
}
