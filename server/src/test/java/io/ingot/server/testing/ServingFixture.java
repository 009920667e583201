package io.ingot.server.testing;

import com.google.protobuf.TextFormat;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.ModelControlMode;
import io.ingot.config.proto.ModelConfig;
import io.ingot.server.FrontendOptions;
import io.ingot.server.ServerFrontends;
import io.ingot.protocol.grpc.GRPCInferenceServiceGrpc;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * A running core with the test models, the three frontends on ephemeral loopback ports, an HTTP client and a gRPC
 * channel. The models:
 * <ul>
 *   <li>{@code add_sub}: the seed-flow model, FP32 dims [16], max_batch_size 8, preferred [4, 8], 2000 µs delay;</li>
 *   <li>{@code add_sub_int}: INT32 dims [4], no batching;</li>
 *   <li>{@code identity_bytes}: BYTES dims [-1] echoed, no batching;</li>
 *   <li>{@code identity_fp16}: FP16 dims [4] echoed, no batching;</li>
 *   <li>{@code identity_fp32}: FP32 dims [-1] echoed, no batching;</li>
 *   <li>{@code identity_var}: FP32 dims [-1] echoed, max_batch_size 8;</li>
 *   <li>{@code identity_string}: BYTES dims [1] echoed, no batching;</li>
 *   <li>{@code identity_mixed}: FP32 [2], INT64 [2], BOOL [2] echoed as OUT_F, OUT_I, OUT_B, max_batch_size 4;</li>
 *   <li>{@code slow}: INT32 [1] echoed after 300 ms, max_batch_size 1, a queue of at most 1 request;</li>
 *   <li>{@code slow_timeout}: as {@code slow} with an unbounded queue and per-request timeouts allowed.</li>
 * </ul>
 */
public final class ServingFixture implements AutoCloseable
{
    /** HTTP body limit of the fixture's server, small enough to test cheaply. */
    public static final long MAX_HTTP_BYTES = 4L << 20;

    private final InferenceCore core;
    private final ServerFrontends frontends;
    private final HttpClient http;
    private final ManagedChannel channel;

    /** Starts everything. */
    public ServingFixture()
    {
        this(UnaryOperator.identity());
    }

    /**
     * Starts everything, with the frontends' options changed.
     *
     * @param frontendOptions changes to the fixture's frontend options (ephemeral ports, {@link #MAX_HTTP_BYTES})
     */
    public ServingFixture(final UnaryOperator<FrontendOptions> frontendOptions)
    {
        this(fixtureModels(), frontendOptions);
    }

    /**
     * Starts the frontends over a core of the given options instead of the fixture's models.
     *
     * @param coreOptions     the core's options
     * @param frontendOptions changes to the fixture's frontend options (ephemeral ports, {@link #MAX_HTTP_BYTES})
     */
    public ServingFixture(final CoreOptions coreOptions, final UnaryOperator<FrontendOptions> frontendOptions)
    {
        core = InferenceCore.open(coreOptions);
        frontends = ServerFrontends.start(core, frontendOptions.apply(FrontendOptions.defaults().withPorts(0, 0, 0)
            .withMaxHttpRequestBytes(MAX_HTTP_BYTES)));
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10))
            .build();
        channel = NettyChannelBuilder.forAddress("127.0.0.1", frontends.grpcPort()).usePlaintext()
            .maxInboundMessageSize(Integer.MAX_VALUE).build();
    }

    private static final String[] MODELS = {
        """
        name: "add_sub" backend: "add_sub" max_batch_size: 8
        input [{ name: "INPUT0" data_type: TYPE_FP32 dims: [16] },
               { name: "INPUT1" data_type: TYPE_FP32 dims: [16] }]
        output [{ name: "OUTPUT0" data_type: TYPE_FP32 dims: [16] },
                { name: "OUTPUT1" data_type: TYPE_FP32 dims: [16] }]
        dynamic_batching { preferred_batch_size: [4, 8] max_queue_delay_microseconds: 2000 }
        instance_group [{ kind: KIND_CPU count: 1 }]
        """,
        """
        name: "add_sub_int" backend: "add_sub" max_batch_size: 0
        input [{ name: "INPUT0" data_type: TYPE_INT32 dims: [4] }, { name: "INPUT1" data_type: TYPE_INT32 dims: [4] }]
        output [{ name: "OUTPUT0" data_type: TYPE_INT32 dims: [4] },
                { name: "OUTPUT1" data_type: TYPE_INT32 dims: [4] }]
        """,
        """
        name: "identity_bytes" backend: "identity" max_batch_size: 0
        input [{ name: "INPUT0" data_type: TYPE_STRING dims: [-1] }]
        output [{ name: "OUTPUT0" data_type: TYPE_STRING dims: [-1] }]
        """,
        """
        name: "identity_fp16" backend: "identity" max_batch_size: 0
        input [{ name: "INPUT0" data_type: TYPE_FP16 dims: [4] }]
        output [{ name: "OUTPUT0" data_type: TYPE_FP16 dims: [4] }]
        """,
        """
        name: "identity_fp32" backend: "identity" max_batch_size: 0
        input [{ name: "INPUT0" data_type: TYPE_FP32 dims: [-1] }]
        output [{ name: "OUTPUT0" data_type: TYPE_FP32 dims: [-1] }]
        """,
        """
        name: "identity_var" backend: "identity" max_batch_size: 8
        input [{ name: "INPUT0" data_type: TYPE_FP32 dims: [-1] }]
        output [{ name: "OUTPUT0" data_type: TYPE_FP32 dims: [-1] }]
        """,
        """
        name: "identity_string" backend: "identity" max_batch_size: 0
        input [{ name: "INPUT0" data_type: TYPE_STRING dims: [1] }]
        output [{ name: "OUTPUT0" data_type: TYPE_STRING dims: [1] }]
        """,
        """
        name: "identity_mixed" backend: "identity" max_batch_size: 4
        input [{ name: "IN_F" data_type: TYPE_FP32 dims: [2] }, { name: "IN_I" data_type: TYPE_INT64 dims: [2] },
               { name: "IN_B" data_type: TYPE_BOOL dims: [2] }]
        output [{ name: "OUT_F" data_type: TYPE_FP32 dims: [2] }, { name: "OUT_I" data_type: TYPE_INT64 dims: [2] },
                { name: "OUT_B" data_type: TYPE_BOOL dims: [2] }]
        """,
        """
        name: "slow" backend: "cost" max_batch_size: 1
        input [{ name: "INPUT0" data_type: TYPE_INT32 dims: [1] }]
        output [{ name: "OUTPUT0" data_type: TYPE_INT32 dims: [1] }]
        parameters { key: "base_us" value { string_value: "300000" } }
        dynamic_batching { default_queue_policy { max_queue_size: 1 } }
        instance_group [{ kind: KIND_CPU count: 1 }]
        """,
        """
        name: "slow_timeout" backend: "cost" max_batch_size: 1
        input [{ name: "INPUT0" data_type: TYPE_INT32 dims: [1] }]
        output [{ name: "OUTPUT0" data_type: TYPE_INT32 dims: [1] }]
        parameters { key: "base_us" value { string_value: "300000" } }
        dynamic_batching {
          default_queue_policy { allow_timeout_override: true default_timeout_microseconds: 60000000
                                 timeout_action: REJECT }
        }
        instance_group [{ kind: KIND_CPU count: 1 }]
        """,
        """
        name: "add_sub_cached" backend: "add_sub" max_batch_size: 0
        input [{ name: "INPUT0" data_type: TYPE_INT32 dims: [4] }, { name: "INPUT1" data_type: TYPE_INT32 dims: [4] }]
        output [{ name: "OUTPUT0" data_type: TYPE_INT32 dims: [4] },
                { name: "OUTPUT1" data_type: TYPE_INT32 dims: [4] }]
        response_cache { enable: true }
        """,
        """
        name: "simple_sequence" backend: "simple_sequence" max_batch_size: 8
        input [{ name: "INPUT" data_type: TYPE_INT32 dims: [1] }]
        output [{ name: "OUTPUT" data_type: TYPE_INT32 dims: [1] }]
        sequence_batching {
          max_sequence_idle_microseconds: 60000000
          control_input [{ name: "START" control [{ kind: CONTROL_SEQUENCE_START int32_false_true: [0, 1] }] },
                         { name: "READY" control [{ kind: CONTROL_SEQUENCE_READY int32_false_true: [0, 1] }] }]
        }
        instance_group [{ kind: KIND_CPU count: 1 }]
        """,
        """
        name: "sequence_accumulator" backend: "sequence_accumulator" max_batch_size: 4
        input [{ name: "INPUT" data_type: TYPE_INT32 dims: [1] }]
        output [{ name: "OUTPUT" data_type: TYPE_INT32 dims: [1] }]
        sequence_batching {
          max_sequence_idle_microseconds: 60000000
          control_input [{ name: "START" control [{ kind: CONTROL_SEQUENCE_START int32_false_true: [0, 1] }] },
                         { name: "READY" control [{ kind: CONTROL_SEQUENCE_READY int32_false_true: [0, 1] }] }]
        }
        instance_group [{ kind: KIND_CPU count: 2 }]
        """,
    };

    private static CoreOptions fixtureModels()
    {
        final CoreOptions.Builder options = CoreOptions.builder().controlMode(ModelControlMode.EXPLICIT)
            .startupModel("*").responseCache(1 << 20);
        for (final String pbtxt : MODELS)
        {
            options.model(config(pbtxt));
        }
        return options.build();
    }

    private static ModelConfig config(final String pbtxt)
    {
        try
        {
            final ModelConfig.Builder builder = ModelConfig.newBuilder();
            TextFormat.merge(pbtxt, builder);
            return builder.build();
        }
        catch (final TextFormat.ParseException bad)
        {
            throw new IllegalArgumentException(bad);
        }
    }

    /** @return the core. */
    public InferenceCore core()
    {
        return core;
    }

    /** @return the running frontends. */
    public ServerFrontends frontends()
    {
        return frontends;
    }

    /** @return {@code http://127.0.0.1:<port>}. */
    public String httpUrl()
    {
        return "http://127.0.0.1:" + frontends.httpPort();
    }

    /** @return the HTTP client. */
    public HttpClient http()
    {
        return http;
    }

    /** @return a blocking stub on the fixture's channel. */
    public GRPCInferenceServiceGrpc.GRPCInferenceServiceBlockingStub grpc()
    {
        return GRPCInferenceServiceGrpc.newBlockingStub(channel).withDeadlineAfter(60, TimeUnit.SECONDS);
    }

    /** @return an async stub on the fixture's channel. */
    public GRPCInferenceServiceGrpc.GRPCInferenceServiceStub grpcAsync()
    {
        return GRPCInferenceServiceGrpc.newStub(channel);
    }

    /** @return the gRPC channel. */
    public ManagedChannel channel()
    {
        return channel;
    }

    /**
     * @param path a path such as {@code /v2/health/live}
     * @return the response
     */
    public HttpResponse<byte[]> get(final String path)
    {
        return send(HttpRequest.newBuilder(URI.create(httpUrl() + path)).GET().build());
    }

    /**
     * @param path a path
     * @param body a body (UTF-8)
     * @return the response
     */
    public HttpResponse<byte[]> post(final String path, final String body)
    {
        return send(HttpRequest.newBuilder(URI.create(httpUrl() + path))
            .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build());
    }

    /**
     * @param request a request
     * @return the response
     */
    public HttpResponse<byte[]> send(final HttpRequest request)
    {
        try
        {
            return http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        }
        catch (final java.io.IOException failure)
        {
            throw new java.io.UncheckedIOException(failure);
        }
        catch (final InterruptedException interrupted)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(interrupted);
        }
    }

    @Override
    public void close()
    {
        channel.shutdownNow();
        try
        {
            channel.awaitTermination(5, TimeUnit.SECONDS);
        }
        catch (final InterruptedException interrupted)
        {
            Thread.currentThread().interrupt();
        }
        http.close();
        frontends.close();
        core.close();
    }
}
