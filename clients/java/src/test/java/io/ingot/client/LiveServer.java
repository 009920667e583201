package io.ingot.client;

import com.google.protobuf.TextFormat;
import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.ModelControlMode;
import io.ingot.client.grpc.GrpcInferenceServerClient;
import io.ingot.client.http.HttpInferenceServerClient;
import io.ingot.config.proto.ModelConfig;
import io.ingot.server.FrontendOptions;
import io.ingot.server.ServerFrontends;

/**
 * A real core behind the real server module's HTTP and gRPC frontends on ephemeral loopback ports: what the clients
 * are tested against. Models (the runtime's built-in backends): {@code add_sub} (FP32 [16], batching up to 8),
 * {@code add_sub_int} (INT32 [4], no batching), {@code identity_fp32} (FP32 [-1]), {@code identity_bytes} (BYTES
 * [-1]), {@code identity_mixed} (FP32, INT64 and BOOL [2], batching up to 4). Model control is EXPLICIT, every model
 * loaded at start.
 */
public final class LiveServer implements AutoCloseable
{
    private static final String[] MODELS = {
        """
        name: "add_sub" backend: "add_sub" max_batch_size: 8
        input [{ name: "INPUT0" data_type: TYPE_FP32 dims: [16] },
               { name: "INPUT1" data_type: TYPE_FP32 dims: [16] }]
        output [{ name: "OUTPUT0" data_type: TYPE_FP32 dims: [16] },
                { name: "OUTPUT1" data_type: TYPE_FP32 dims: [16] }]
        dynamic_batching { max_queue_delay_microseconds: 500 }
        """,
        """
        name: "add_sub_int" backend: "add_sub" max_batch_size: 0
        input [{ name: "INPUT0" data_type: TYPE_INT32 dims: [4] }, { name: "INPUT1" data_type: TYPE_INT32 dims: [4] }]
        output [{ name: "OUTPUT0" data_type: TYPE_INT32 dims: [4] },
                { name: "OUTPUT1" data_type: TYPE_INT32 dims: [4] }]
        """,
        """
        name: "identity_fp32" backend: "identity" max_batch_size: 0
        input [{ name: "INPUT0" data_type: TYPE_FP32 dims: [-1] }]
        output [{ name: "OUTPUT0" data_type: TYPE_FP32 dims: [-1] }]
        """,
        """
        name: "identity_bytes" backend: "identity" max_batch_size: 0
        input [{ name: "INPUT0" data_type: TYPE_STRING dims: [-1] }]
        output [{ name: "OUTPUT0" data_type: TYPE_STRING dims: [-1] }]
        """,
        """
        name: "identity_mixed" backend: "identity" max_batch_size: 4
        input [{ name: "IN_F" data_type: TYPE_FP32 dims: [2] }, { name: "IN_I" data_type: TYPE_INT64 dims: [2] },
               { name: "IN_B" data_type: TYPE_BOOL dims: [2] }]
        output [{ name: "OUT_F" data_type: TYPE_FP32 dims: [2] }, { name: "OUT_I" data_type: TYPE_INT64 dims: [2] },
                { name: "OUT_B" data_type: TYPE_BOOL dims: [2] }]
        """,
    };

    private final InferenceCore core;
    private final ServerFrontends frontends;

    /** Starts the core and the frontends. */
    public LiveServer()
    {
        final CoreOptions.Builder options = CoreOptions.builder().controlMode(ModelControlMode.EXPLICIT)
            .startupModel("*");
        for (final String pbtxt : MODELS)
        {
            final ModelConfig.Builder config = ModelConfig.newBuilder();
            try
            {
                TextFormat.merge(pbtxt, config);
            }
            catch (final TextFormat.ParseException bad)
            {
                throw new IllegalArgumentException(bad);
            }
            options.model(config.build());
        }
        core = InferenceCore.open(options.build());
        frontends = ServerFrontends.start(core, FrontendOptions.defaults().withPorts(0, 0, -1));
    }

    /** @return {@code 127.0.0.1:port} of the HTTP frontend */
    public String httpUrl()
    {
        return "127.0.0.1:" + frontends.httpPort();
    }

    /** @return {@code 127.0.0.1:port} of the gRPC frontend */
    public String grpcUrl()
    {
        return "127.0.0.1:" + frontends.grpcPort();
    }

    /**
     * @param transport "http" or "grpc"
     * @param options   the client's options
     * @return a client of that transport for this server
     */
    public InferenceClient client(final String transport, final ClientOptions options)
    {
        return transport.equals("http") ? new HttpInferenceServerClient(httpUrl(), false, options)
            : new GrpcInferenceServerClient(grpcUrl(), false, options);
    }

    @Override
    public void close()
    {
        frontends.close();
        core.close();
    }
}
