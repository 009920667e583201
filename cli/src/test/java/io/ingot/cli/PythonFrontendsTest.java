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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Python models behind the server's frontends, as a client reaches them: a decoupled model (Triton's repeat example,
 * written here) streams its responses over gRPC's ModelStreamInfer as it sends them, with the empty final response
 * Triton's stream sends on request; the custom parameters and the id of an HTTP request, and of a gRPC one, reach
 * {@code request.parameters()} and {@code request_id()}; a model's metric family is on /metrics. Skipped, with the
 * reason printed, where {@code /usr/bin/python3} cannot import numpy.
 */
class PythonFrontendsTest
{
    private static final String REPEAT = """
        import threading
        import time

        import numpy as np
        import triton_python_backend_utils as pb_utils


        class TritonPythonModel:
            def respond(self, sender, values, delays):
                for idx, (value, delay) in enumerate(zip(values, delays)):
                    time.sleep(delay / 1000)
                    sender.send(pb_utils.InferenceResponse([pb_utils.Tensor("OUT", np.array([value], np.int32)),
                                                            pb_utils.Tensor("IDX", np.array([idx], np.uint32))]))
                sender.send(flags=pb_utils.TRITONSERVER_RESPONSE_COMPLETE_FINAL)

            def execute(self, requests):
                for request in requests:
                    values = pb_utils.get_input_tensor_by_name(request, "IN").as_numpy().copy()
                    delays = pb_utils.get_input_tensor_by_name(request, "DELAY").as_numpy().copy()
                    threading.Thread(target=self.respond,
                                     args=(request.get_response_sender(), values, delays)).start()
                return None
        """;

    private static final String REPEAT_CONFIG = """
        name: "repeat_py"
        backend: "python"
        model_transaction_policy { decoupled: true }
        input [
          { name: "IN" data_type: TYPE_INT32 dims: [ -1 ] },
          { name: "DELAY" data_type: TYPE_UINT32 dims: [ -1 ] }
        ]
        output [
          { name: "OUT" data_type: TYPE_INT32 dims: [ 1 ] },
          { name: "IDX" data_type: TYPE_UINT32 dims: [ 1 ] }
        ]
        """;

    private static final String ECHO = """
        import numpy as np
        import triton_python_backend_utils as pb_utils


        class TritonPythonModel:
            def initialize(self, args):
                self.family = pb_utils.MetricFamily(name="echo_requests_total", description="echoed requests",
                                                    kind=pb_utils.MetricFamily.COUNTER)
                self.metric = self.family.Metric(labels={"model": args["model_name"]})

            def execute(self, requests):
                responses = []
                for request in requests:
                    self.metric.increment(1)
                    text = "%s %s" % (request.request_id(), request.parameters())
                    responses.append(pb_utils.InferenceResponse([pb_utils.Tensor(
                        "TEXT", np.array([text.encode()], dtype=np.object_))]))
                return responses
        """;

    private static final String ECHO_CONFIG = """
        name: "echo_py"
        backend: "python"
        input [ { name: "IN" data_type: TYPE_INT32 dims: [ 1 ] } ]
        output [ { name: "TEXT" data_type: TYPE_STRING dims: [ 1 ] } ]
        """;

    @TempDir
    static Path repository;
    private static InferenceCore core;
    private static ServerFrontends frontends;

    @BeforeAll
    static void serve() throws Exception
    {
        final Process probe = new ProcessBuilder("/usr/bin/python3", "-c", "import numpy").start();
        if (!probe.waitFor(60, TimeUnit.SECONDS) || probe.exitValue() != 0)
        {
            System.out.println("PythonFrontendsTest skipped: /usr/bin/python3 with numpy is missing");
            Assumptions.abort("/usr/bin/python3 with numpy is missing (install python3-numpy)");
        }
        write("repeat_py", REPEAT_CONFIG, REPEAT);
        write("echo_py", ECHO_CONFIG, ECHO);
        core = InferenceCore.open(CoreOptions.builder().modelRepository(repository)
            .controlMode(ModelControlMode.EXPLICIT).startupModel("repeat_py").startupModel("echo_py").build());
        assertTrue(core.isModelReady("repeat_py", -1) && core.isModelReady("echo_py", -1),
            () -> core.repositoryIndex(false).toString());
        frontends = ServerFrontends.start(core, FrontendOptions.defaults().withPorts(0, 0, 0));
    }

    private static void write(final String name, final String config, final String model) throws Exception
    {
        Files.createDirectories(repository.resolve(name).resolve("1"));
        Files.writeString(repository.resolve(name).resolve("config.pbtxt"), config);
        Files.writeString(repository.resolve(name).resolve("1").resolve("model.py"), model);
    }

    @AfterAll
    static void stop()
    {
        if (frontends != null)
        {
            frontends.close();
        }
        if (core != null)
        {
            core.close();
        }
    }

    @Test
    void aDecoupledPythonModelStreamsOverGrpc() throws Exception
    {
        final ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", frontends.grpcPort())
            .usePlaintext().build();
        try
        {
            final List<String> seen = new ArrayList<>();
            final CountDownLatch finals = new CountDownLatch(2);
            final StreamObserver<ModelInferRequest> stream = GRPCInferenceServiceGrpc.newStub(channel)
                .modelStreamInfer(new StreamObserver<>()
                {
                    @Override
                    public void onNext(final ModelStreamInferResponse response)
                    {
                        synchronized (seen)
                        {
                            if (!response.getErrorMessage().isEmpty())
                            {
                                seen.add("error " + response.getErrorMessage());
                            }
                            else if (response.getInferResponse().getRawOutputContentsCount() == 0)
                            {
                                seen.add(response.getInferResponse().getId() + " final");
                                finals.countDown();
                            }
                            else
                            {
                                seen.add(response.getInferResponse().getId() + " " + response.getInferResponse()
                                    .getRawOutputContents(0).asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN)
                                    .getInt(0));
                            }
                        }
                    }

                    @Override
                    public void onError(final Throwable failure)
                    {
                        synchronized (seen)
                        {
                            seen.add("stream error " + failure);
                        }
                    }

                    @Override
                    public void onCompleted()
                    {
                    }
                });
            stream.onNext(repeat("a", new int[] {4, 2, 0, 1}, new int[] {1, 2, 3, 4}));
            stream.onNext(repeat("b", new int[] {7}, new int[] {0}));
            assertTrue(finals.await(60, TimeUnit.SECONDS), () -> "responses: " + seen);
            stream.onCompleted();
            synchronized (seen)
            {
                final List<String> a = seen.stream().filter(s -> s.startsWith("a ")).toList();
                final List<String> b = seen.stream().filter(s -> s.startsWith("b ")).toList();
                assertEquals(List.of("a 4", "a 2", "a 0", "a 1", "a final"), a, seen.toString());
                assertEquals(List.of("b 7", "b final"), b, seen.toString());
            }
        }
        finally
        {
            channel.shutdownNow();
        }
    }

    @Test
    void httpAndGrpcParametersAndIdsReachTheModelAndItsMetricIsOnMetrics() throws Exception
    {
        final HttpClient http = HttpClient.newHttpClient();
        final String body = "{\"id\":\"h-1\",\"parameters\":{\"p1\":\"x\",\"p2\":5,\"p3\":true},\"inputs\":[{\"name\":"
            + "\"IN\",\"shape\":[1],\"datatype\":\"INT32\",\"data\":[1]}]}";
        final HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
            + frontends.httpPort() + "/v2/models/echo_py/infer")).POST(HttpRequest.BodyPublishers.ofString(body))
            .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        // Compact JSON, as Triton's TritonJson writes request.parameters().
        assertTrue(response.body().contains("\"h-1 {\\\"p1\\\":\\\"x\\\",\\\"p2\\\":5,\\\"p3\\\":true}\""),
            response.body());

        final ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", frontends.grpcPort())
            .usePlaintext().build();
        try
        {
            final var reply = GRPCInferenceServiceGrpc.newBlockingStub(channel).modelInfer(ModelInferRequest
                .newBuilder().setModelName("echo_py").setId("g-1")
                .putParameters("k", InferParameter.newBuilder().setStringParam("v").build())
                .addInputs(ModelInferRequest.InferInputTensor.newBuilder().setName("IN").setDatatype("INT32")
                    .addShape(1)).addRawInputContents(int32(1)).build());
            final ByteBuffer text = reply.getRawOutputContents(0).asReadOnlyByteBuffer()
                .order(ByteOrder.LITTLE_ENDIAN);
            final byte[] bytes = new byte[text.getInt(0)];
            text.position(4);
            text.get(bytes);
            assertEquals("g-1 {\"k\":\"v\"}", new String(bytes, StandardCharsets.UTF_8));
        }
        finally
        {
            channel.shutdownNow();
        }
        final String metrics = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
            + frontends.metricsPort() + "/metrics")).GET().build(), HttpResponse.BodyHandlers.ofString()).body();
        assertTrue(metrics.contains("# HELP echo_requests_total echoed requests\n# TYPE echo_requests_total counter\n"
            + "echo_requests_total{model=\"echo_py\"} "), metrics);
    }

    private static ModelInferRequest repeat(final String id, final int[] values, final int[] delays)
    {
        return ModelInferRequest.newBuilder().setModelName("repeat_py").setId(id)
            .putParameters("triton_enable_empty_final_response", InferParameter.newBuilder().setBoolParam(true)
                .build())
            .addInputs(ModelInferRequest.InferInputTensor.newBuilder().setName("IN").setDatatype("INT32")
                .addShape(values.length))
            .addInputs(ModelInferRequest.InferInputTensor.newBuilder().setName("DELAY").setDatatype("UINT32")
                .addShape(delays.length))
            .addRawInputContents(int32(values)).addRawInputContents(int32(delays)).build();
    }

    private static ByteString int32(final int... values)
    {
        final ByteBuffer buffer = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (final int value : values)
        {
            buffer.putInt(value);
        }
        return ByteString.copyFrom(buffer.array());
    }
}
