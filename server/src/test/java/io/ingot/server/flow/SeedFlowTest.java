package io.ingot.server.flow;

import com.google.protobuf.ByteString;
import io.ingot.api.InferenceRequest;
import io.ingot.api.ModelStatistics;
import io.ingot.protocol.grpc.GRPCInferenceServiceGrpc;
import io.ingot.protocol.grpc.ModelInferRequest;
import io.ingot.protocol.grpc.ModelInferResponse;
import io.ingot.server.testing.InferBody;
import io.ingot.server.testing.InferResult;
import io.ingot.server.testing.ServingFixture;
import io.ingot.testing.ChildProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The seed flow: ten concurrent [1, 16] requests to add_sub (FP32 dims [16], max_batch_size 8, preferred [4, 8],
 * 2000 µs queue delay), sent as Triton's clients send them; every answer correct, and the statistics show that they
 * were batched. Over HTTP (binary tensors, no Content-Type), over gRPC, and with the standard-library Python script.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SeedFlowTest
{
    private static final int REQUESTS = 10;

    private final ServingFixture server = new ServingFixture();

    @AfterAll
    void stop()
    {
        server.close();
    }

    private static float[] first(final int index)
    {
        final float[] values = new float[16];
        for (int i = 0; i < 16; i++)
        {
            values[i] = index * 100 + i;
        }
        return values;
    }

    private static float[] second()
    {
        final float[] values = new float[16];
        for (int i = 0; i < 16; i++)
        {
            values[i] = i * 0.5f;
        }
        return values;
    }

    private long[] counts()
    {
        final ModelStatistics stats = server.core().modelStatistics("add_sub", InferenceRequest.DEFAULT_VERSION)
            .getFirst();
        return new long[] {stats.inferenceCount(), stats.executionCount()};
    }

    private static void assertBatched(final long[] before, final long[] after)
    {
        final long inferences = after[0] - before[0];
        final long executions = after[1] - before[1];
        assertEquals(REQUESTS, inferences, "inference_count must grow by one per [1,16] request");
        assertTrue(executions < inferences, "requests were not batched: execution_count +" + executions
            + ", inference_count +" + inferences);
    }

    @Test
    void overHttpWithBinaryTensors()
    {
        final List<HttpRequest> requests = new ArrayList<>();
        for (int r = 0; r < REQUESTS; r++)
        {
            requests.add(new InferBody()
                .binaryInput("INPUT0", "FP32", new long[] {1, 16}, InferBody.fp32(first(r)))
                .binaryInput("INPUT1", "FP32", new long[] {1, 16}, InferBody.fp32(second()))
                .output("OUTPUT0", true).output("OUTPUT1", true)
                .request(server.httpUrl() + "/v2/models/add_sub/infer"));
        }
        final long[] before = counts();
        final List<CompletableFuture<HttpResponse<byte[]>>> sent = new ArrayList<>();
        for (final HttpRequest request : requests)
        {
            assertTrue(request.headers().firstValue("Content-Type").isEmpty());
            sent.add(server.http().sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()));
        }
        for (int r = 0; r < REQUESTS; r++)
        {
            final InferResult result = InferResult.of(sent.get(r).join());
            assertEquals(200, result.status(), result.json().toString());
            final float[] sum = result.fp32("OUTPUT0");
            final float[] difference = result.fp32("OUTPUT1");
            for (int i = 0; i < 16; i++)
            {
                assertEquals(first(r)[i] + second()[i], sum[i]);
                assertEquals(first(r)[i] - second()[i], difference[i]);
            }
        }
        assertBatched(before, counts());
        final String stats = new String(server.get("/v2/models/add_sub/stats").body(), StandardCharsets.UTF_8);
        assertTrue(stats.contains("\"batch_size\":"), stats);
    }

    @Test
    void overGrpc() throws Exception
    {
        final GRPCInferenceServiceGrpc.GRPCInferenceServiceFutureStub stub = GRPCInferenceServiceGrpc
            .newFutureStub(server.channel());
        final long[] before = counts();
        final List<java.util.concurrent.Future<ModelInferResponse>> sent = new ArrayList<>();
        for (int r = 0; r < REQUESTS; r++)
        {
            sent.add(stub.modelInfer(ModelInferRequest.newBuilder().setModelName("add_sub").setId("g" + r)
                .addInputs(ModelInferRequest.InferInputTensor.newBuilder().setName("INPUT0").setDatatype("FP32")
                    .addShape(1).addShape(16))
                .addInputs(ModelInferRequest.InferInputTensor.newBuilder().setName("INPUT1").setDatatype("FP32")
                    .addShape(1).addShape(16))
                .addOutputs(ModelInferRequest.InferRequestedOutputTensor.newBuilder().setName("OUTPUT0"))
                .addOutputs(ModelInferRequest.InferRequestedOutputTensor.newBuilder().setName("OUTPUT1"))
                .addRawInputContents(ByteString.copyFrom(InferBody.fp32(first(r))))
                .addRawInputContents(ByteString.copyFrom(InferBody.fp32(second())))
                .build()));
        }
        for (int r = 0; r < REQUESTS; r++)
        {
            final ModelInferResponse response = sent.get(r).get(60, TimeUnit.SECONDS);
            assertEquals("g" + r, response.getId());
            for (int o = 0; o < 2; o++)
            {
                final boolean sum = response.getOutputs(o).getName().equals("OUTPUT0");
                final ByteBuffer values = response.getRawOutputContents(o).asReadOnlyByteBuffer()
                    .order(ByteOrder.LITTLE_ENDIAN);
                for (int i = 0; i < 16; i++)
                {
                    assertEquals(sum ? first(r)[i] + second()[i] : first(r)[i] - second()[i], values.getFloat());
                }
            }
        }
        assertBatched(before, counts());
    }

    @Test
    void withTheStandardLibraryPythonScript() throws IOException, InterruptedException
    {
        final Path script = Path.of("..", "clients", "python", "seed_flow_http.py").toAbsolutePath().normalize();
        assertTrue(Files.isRegularFile(script), script + " is missing");
        final String python = ChildProcess.python3();
        Assumptions.assumeTrue(python != null, "python3 is not installed: the Python seed flow is skipped");
        final Process process = new ProcessBuilder(python, script.toString(), server.httpUrl(), "add_sub")
            .redirectErrorStream(true).start();
        final boolean finished = process.waitFor(120, TimeUnit.SECONDS);
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!finished)
        {
            process.destroyForcibly();
        }
        assertTrue(finished, "the script did not finish: " + output);
        assertEquals(0, process.exitValue(), output);
        assertTrue(output.contains("10 requests answered correctly"), output);
    }
}
