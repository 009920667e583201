package io.ingot.server.shm;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.ingot.server.ipc.IpcServer;
import io.ingot.protocol.grpc.InferParameter;
import io.ingot.protocol.grpc.SystemSharedMemoryRegisterRequest;
import io.ingot.protocol.grpc.ModelInferRequest;
import io.ingot.protocol.grpc.ModelInferResponse;
import io.ingot.server.testing.InferBody;
import io.ingot.server.testing.InferResult;
import io.ingot.server.testing.ServingFixture;
import io.ingot.server.testing.ShmObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.http.HttpResponse;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Inference with tensors in client-created POSIX shared memory: inputs read and outputs written in place, over HTTP
 * and gRPC; the response carries no tensor bytes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SharedMemoryInferTest
{
    private static final ValueLayout.OfFloat FLOAT =
        ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final ServingFixture server = new ServingFixture();

    @AfterAll
    void stop()
    {
        server.close();
    }

    private void register(final String name, final ShmObject object, final long offset, final long size)
    {
        final HttpResponse<byte[]> response = server.post("/v2/systemsharedmemory/region/" + name + "/register",
            "{\"key\":\"" + object.key() + "\",\"offset\":" + offset + ",\"byte_size\":" + size + "}");
        assertEquals(200, response.statusCode(), new String(response.body(), StandardCharsets.UTF_8));
    }

    private static void writeInputs(final MemorySegment memory, final float base)
    {
        for (int i = 0; i < 16; i++)
        {
            memory.set(FLOAT, i * 4L, base + i);
            memory.set(FLOAT, 64 + i * 4L, 10f * i);
        }
    }

    private static void assertOutputs(final MemorySegment memory, final long offset, final float base)
    {
        for (int i = 0; i < 16; i++)
        {
            assertEquals(base + i + 10f * i, memory.get(FLOAT, offset + i * 4L), "OUTPUT0[" + i + "]");
            assertEquals(base + i - 10f * i, memory.get(FLOAT, offset + 64 + i * 4L), "OUTPUT1[" + i + "]");
        }
    }

    @Test
    void httpRoundTripReadsAndWritesTheRegionsInPlace()
    {
        try (ShmObject object = new ShmObject(4096))
        {
            register("http_in", object, 0, 1024);
            register("http_out", object, 1024, 1024);
            writeInputs(object.memory(), 3f);
            final HttpResponse<byte[]> response = server.send(new InferBody()
                .shmInput("INPUT0", "FP32", new long[] {1, 16}, "http_in", 0, 64)
                .shmInput("INPUT1", "FP32", new long[] {1, 16}, "http_in", 64, 64)
                .shmOutput("OUTPUT0", "http_out", 0, 64)
                .shmOutput("OUTPUT1", "http_out", 64, 64)
                .request(server.httpUrl() + "/v2/models/add_sub/infer"));
            final InferResult result = InferResult.of(response);
            assertEquals(200, result.status(), result.json().toString());
            assertEquals("application/json", response.headers().firstValue("content-type").orElseThrow());
            final JsonObject output = result.output("OUTPUT0");
            assertEquals("[1,16]", output.getAsJsonArray("shape").toString());
            assertFalse(output.has("data") || output.has("parameters"), output.toString());
            assertOutputs(object.memory(), 1024, 3f);

            // An output region too small for the result is refused with the sizes.
            final HttpResponse<byte[]> small = server.send(new InferBody()
                .shmInput("INPUT0", "FP32", new long[] {1, 16}, "http_in", 0, 64)
                .shmInput("INPUT1", "FP32", new long[] {1, 16}, "http_in", 64, 64)
                .shmOutput("OUTPUT0", "http_out", 512, 32)
                .request(server.httpUrl() + "/v2/models/add_sub/infer"));
            assertEquals(400, small.statusCode());
            assertTrue(new String(small.body(), StandardCharsets.UTF_8).contains("should be at least 64 bytes"));

            // Out of bounds.
            final HttpResponse<byte[]> outside = server.send(new InferBody()
                .shmInput("INPUT0", "FP32", new long[] {1, 16}, "http_in", 1000, 64)
                .shmInput("INPUT1", "FP32", new long[] {1, 16}, "http_in", 64, 64)
                .request(server.httpUrl() + "/v2/models/add_sub/infer"));
            assertEquals(400, outside.statusCode());
            assertTrue(new String(outside.body(), StandardCharsets.UTF_8).contains("Invalid offset + byte size for "
                + "shared memory region: 'http_in'"), new String(outside.body(), StandardCharsets.UTF_8));
            // Offsets are uint64 (Triton's AsUInt): 2^64-1 parses and is refused by the bounds check, not the parser.
            final HttpResponse<byte[]> farOut = server.post("/v2/models/add_sub/infer", "{\"inputs\":[{\"name\":"
                + "\"INPUT0\",\"datatype\":\"FP32\",\"shape\":[1,16],\"parameters\":{\"shared_memory_region\":"
                + "\"http_in\",\"shared_memory_offset\":18446744073709551615,\"shared_memory_byte_size\":64}}]}");
            assertEquals(400, farOut.statusCode());
            assertTrue(new String(farOut.body(), StandardCharsets.UTF_8).contains("Invalid offset for shared memory "
                + "region: 'http_in' (tensor 'INPUT0': offset 18446744073709551615"),
                new String(farOut.body(), StandardCharsets.UTF_8));
            server.post("/v2/systemsharedmemory/unregister", "");
        }
    }

    @Test
    void grpcRoundTripLeavesRawOutputsEmpty()
    {
        try (ShmObject object = new ShmObject(4096))
        {
            register("grpc_in", object, 0, 128);
            register("grpc_out", object, 2048, 128);
            writeInputs(object.memory(), -7f);
            final ModelInferResponse response = server.grpc().modelInfer(ModelInferRequest.newBuilder()
                .setModelName("add_sub")
                .addInputs(shmInput("INPUT0", "grpc_in", 0))
                .addInputs(shmInput("INPUT1", "grpc_in", 64))
                .addOutputs(shmOutput("OUTPUT0", "grpc_out", 0))
                .addOutputs(shmOutput("OUTPUT1", "grpc_out", 64))
                .build());
            assertEquals(2, response.getRawOutputContentsCount());
            assertTrue(response.getRawOutputContents(0).isEmpty() && response.getRawOutputContents(1).isEmpty());
            assertOutputs(object.memory(), 2048, -7f);
            server.post("/v2/systemsharedmemory/unregister", "");
        }
    }

    @Test
    void unregisterDuringInferenceKeepsTheRegionUntilTheLastRequestUsingItCompletesAsTriton() throws Exception
    {
        // Triton's qa/L0_shared_memory TestSharedMemoryUnregister (test_unregister_shm_during_inference_*_http):
        // the unregister succeeds at once, the region stays in the status and usable while requests use it, and goes
        // by itself when the last of them completes.
        try (ShmObject object = new ShmObject(64))
        {
            register("busy", object, 0, 64);
            object.memory().set(INT, 0, 1234);
            final CompletableFuture<HttpResponse<byte[]>> first = slowThroughRegion(32);
            final SharedMemoryRegion region = server.frontends().sharedMemory().status("busy").getFirst();
            awaitHolders(region, 1);
            final long firstHolds = region.holders();

            assertEquals(200, server.post("/v2/systemsharedmemory/region/busy/unregister", "").statusCode());
            assertEquals(200, server.post("/v2/systemsharedmemory/region/never_registered/unregister", "")
                .statusCode(), "unregistering an unknown region during inference succeeds, as in Triton");
            assertEquals(200, server.post("/v2/systemsharedmemory/unregister", "").statusCode());
            final HttpResponse<byte[]> listed = server.get("/v2/systemsharedmemory/status");
            assertEquals("[{\"name\":\"busy\",\"key\":\"" + object.key() + "\",\"offset\":0,\"byte_size\":64}]",
                new String(listed.body(), StandardCharsets.UTF_8), "the region stays while a request uses it");

            final CompletableFuture<HttpResponse<byte[]>> second = slowThroughRegion(48);
            awaitHolders(region, firstHolds + 1);
            final HttpResponse<byte[]> firstDone = first.get();
            assertEquals(200, firstDone.statusCode(), new String(firstDone.body(), StandardCharsets.UTF_8));
            assertEquals(200, server.get("/v2/systemsharedmemory/region/busy/status").statusCode(),
                "the second request still uses the region");
            final HttpResponse<byte[]> secondDone = second.get();
            assertEquals(200, secondDone.statusCode(), new String(secondDone.body(), StandardCharsets.UTF_8));
            assertEquals(1234, object.memory().get(INT, 32));
            assertEquals(1234, object.memory().get(INT, 48));

            final HttpResponse<byte[]> gone = server.get("/v2/systemsharedmemory/region/busy/status");
            assertEquals(404, gone.statusCode());
            assertEquals("{\"error\":\"Unable to find system shared memory region: 'busy'\"}",
                new String(gone.body(), StandardCharsets.UTF_8));
            assertFalse(region.isMapped(), "the mapping is released once its last request completed");
            assertEquals("[]", new String(server.get("/v2/systemsharedmemory/status").body(),
                StandardCharsets.UTF_8));
            register("busy", object, 0, 64);
            server.post("/v2/systemsharedmemory/unregister", "");
        }
    }

    /** An inference of the 300 ms model reading INT32 input at 0 of region 'busy', writing its output at an offset. */
    private CompletableFuture<HttpResponse<byte[]>> slowThroughRegion(final long outputOffset)
    {
        return server.http().sendAsync(new InferBody()
            .shmInput("INPUT0", "INT32", new long[] {1, 1}, "busy", 0, 4)
            .shmOutput("OUTPUT0", "busy", outputOffset, 4)
            .request(server.httpUrl() + "/v2/models/slow_timeout/infer"), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static void awaitHolders(final SharedMemoryRegion region, final long atLeast)
    {
        final long deadline = System.nanoTime() + 30_000_000_000L;
        while (region.holders() < atLeast && System.nanoTime() < deadline)
        {
            Thread.onSpinWait();
        }
        assertTrue(region.holders() >= atLeast, "the request never took hold of the region");
    }

    private String registerError(final String region, final String key)
    {
        final HttpResponse<byte[]> response = server.post("/v2/systemsharedmemory/region/" + region + "/register",
            "{\"key\":\"" + key + "\",\"offset\":0,\"byte_size\":16}");
        assertEquals(400, response.statusCode());
        return JsonParser.parseString(new String(response.body(), StandardCharsets.UTF_8)).getAsJsonObject()
            .get("error").getAsString();
    }

    /** Issue 14, defects 1 and 2: over HTTP and gRPC, a planted link and a live IPC region file are refused. */
    @Test
    void aPlantedLinkAndALiveIpcRegionFileAreRefusedAtRegistration() throws IOException
    {
        final Path link = Path.of("/dev/shm", "ingot_test_link_" + UUID.randomUUID().toString().replace("-", ""));
        Files.createSymbolicLink(link, Path.of("/etc/os-release"));
        final String ipcName = "hardening-" + UUID.randomUUID().toString().substring(0, 8);
        try (IpcServer ipc = IpcServer.start(server.core(), ipcName))
        {
            final String viaLink = registerError("planted", "/" + link.getFileName());
            assertTrue(viaLink.contains("is a symbolic link"), viaLink);
            final String viaIpc = registerError("ipc", "/" + ipc.path().getFileName());
            assertTrue(viaIpc.contains("Ingot's own IPC region files"), viaIpc);
            final StatusRuntimeException grpc = assertThrows(StatusRuntimeException.class,
                () -> server.grpc().systemSharedMemoryRegister(SystemSharedMemoryRegisterRequest.newBuilder()
                    .setName("planted").setKey("/" + link.getFileName()).setByteSize(16).build()));
            assertEquals(Status.Code.INVALID_ARGUMENT, grpc.getStatus().getCode());
            assertTrue(grpc.getStatus().getDescription().contains("is a symbolic link"),
                grpc.getStatus().getDescription());
            assertTrue(server.frontends().sharedMemory().status(null).isEmpty());
        }
        finally
        {
            Files.deleteIfExists(link);
        }
    }

    /** Issue 14, defect 7: an object the client truncated after registering it is a 400, not a 500. */
    @Test
    void anInferenceOnATruncatedObjectIsA400NamingTheSizes() throws IOException
    {
        try (ShmObject object = new ShmObject(4096))
        {
            register("shrunk", object, 0, 4096);
            try (FileChannel channel = FileChannel.open(Path.of("/dev/shm", object.key().substring(1)),
                StandardOpenOption.WRITE))
            {
                channel.truncate(64);
            }
            final HttpResponse<byte[]> response = server.send(new InferBody()
                .shmInput("INPUT0", "FP32", new long[] {1, 16}, "shrunk", 0, 64)
                .shmInput("INPUT1", "FP32", new long[] {1, 16}, "shrunk", 64, 64)
                .request(server.httpUrl() + "/v2/models/add_sub/infer"));
            final String body = new String(response.body(), StandardCharsets.UTF_8);
            assertEquals(400, response.statusCode(), body);
            assertTrue(body.contains("is now 64 bytes: tensor 'INPUT1' needs bytes up to 128"), body);
            server.post("/v2/systemsharedmemory/unregister", "");
        }
    }

    private static ModelInferRequest.InferInputTensor shmInput(final String name, final String region,
        final long offset)
    {
        return ModelInferRequest.InferInputTensor.newBuilder().setName(name).setDatatype("FP32").addShape(1)
            .addShape(16)
            .putParameters("shared_memory_region", InferParameter.newBuilder().setStringParam(region).build())
            .putParameters("shared_memory_offset", InferParameter.newBuilder().setInt64Param(offset).build())
            .putParameters("shared_memory_byte_size", InferParameter.newBuilder().setInt64Param(64).build())
            .build();
    }

    private static ModelInferRequest.InferRequestedOutputTensor shmOutput(final String name, final String region,
        final long offset)
    {
        return ModelInferRequest.InferRequestedOutputTensor.newBuilder().setName(name)
            .putParameters("shared_memory_region", InferParameter.newBuilder().setStringParam(region).build())
            .putParameters("shared_memory_offset", InferParameter.newBuilder().setInt64Param(offset).build())
            .putParameters("shared_memory_byte_size", InferParameter.newBuilder().setInt64Param(64).build())
            .build();
    }
}
