package io.ingot.client.grpc;

import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.MoreExecutors;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import io.ingot.client.ClientOptions;
import io.ingot.client.InferInput;
import io.ingot.client.InferOptions;
import io.ingot.client.InferRequestedOutput;
import io.ingot.client.InferResult;
import io.ingot.client.InferenceClient;
import io.ingot.client.InferenceServerException;
import io.ingot.protocol.grpc.GRPCInferenceServiceGrpc;
import io.ingot.protocol.grpc.ModelConfigRequest;
import io.ingot.protocol.grpc.ModelConfigResponse;
import io.ingot.protocol.grpc.ModelInferResponse;
import io.ingot.protocol.grpc.ModelMetadataRequest;
import io.ingot.protocol.grpc.ModelMetadataResponse;
import io.ingot.protocol.grpc.ModelReadyRequest;
import io.ingot.protocol.grpc.ModelRepositoryParameter;
import io.ingot.protocol.grpc.ModelStatisticsRequest;
import io.ingot.protocol.grpc.ModelStatisticsResponse;
import io.ingot.protocol.grpc.RepositoryIndexRequest;
import io.ingot.protocol.grpc.RepositoryIndexResponse;
import io.ingot.protocol.grpc.RepositoryModelLoadRequest;
import io.ingot.protocol.grpc.RepositoryModelUnloadRequest;
import io.ingot.protocol.grpc.ServerLiveRequest;
import io.ingot.protocol.grpc.ServerMetadataRequest;
import io.ingot.protocol.grpc.ServerMetadataResponse;
import io.ingot.protocol.grpc.ServerReadyRequest;
import io.ingot.protocol.grpc.SystemSharedMemoryRegisterRequest;
import io.ingot.protocol.grpc.SystemSharedMemoryStatusRequest;
import io.ingot.protocol.grpc.SystemSharedMemoryStatusResponse;
import io.ingot.protocol.grpc.SystemSharedMemoryUnregisterRequest;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A KServe v2 client over gRPC for Ingot and Triton ({@code inference.GRPCInferenceService}), with the methods and
 * semantics of Triton's {@code tritonclient.grpc.InferenceServerClient}: health, metadata, configuration, the model
 * repository, statistics, the system shared-memory extension, and inference, synchronously ({@link #infer}) or
 * asynchronously ({@link #inferAsync}: a future completed on gRPC's transport thread, no thread blocked while the
 * call is in flight). Tensors travel as {@code raw_input_contents}/{@code raw_output_contents}; metadata calls return
 * the protobuf messages (Triton's default {@code as_json=False}). Errors are {@link InferenceServerException}s with
 * Triton's Python status text ({@code StatusCode.NOT_FOUND}) and the server's message; a server that cannot be
 * reached is {@code StatusCode.UNAVAILABLE "failed to connect to all addresses; last error: ..."}, a response over
 * {@link ClientOptions#maxResponseBytes()} is {@code StatusCode.RESOURCE_EXHAUSTED} naming that limit.
 *
 * <p>Thread-safe: one client (one channel) serves any number of threads. {@link #close()} shuts the channel down.
 */
public final class GrpcInferenceServerClient implements InferenceClient
{
    private final ManagedChannel channel;
    private final String target;
    private final ClientOptions options;
    private final GRPCInferenceServiceGrpc.GRPCInferenceServiceBlockingStub blocking;
    private final GRPCInferenceServiceGrpc.GRPCInferenceServiceFutureStub future;

    /** @param url {@code host:port}, as Triton's client takes it */
    public GrpcInferenceServerClient(final String url)
    {
        this(url, false, ClientOptions.DEFAULTS);
    }

    /**
     * @param url     {@code host:port}
     * @param ssl     true for TLS with the platform's trust store
     * @param options the response limit (the channel's inbound message limit) and the calls' deadline
     */
    public GrpcInferenceServerClient(final String url, final boolean ssl, final ClientOptions options)
    {
        if (url.contains("://"))
        {
            throw new InferenceServerException("url should not include the scheme");
        }
        final NettyChannelBuilder builder = NettyChannelBuilder.forTarget(url)
            .maxInboundMessageSize(options.maxResponseBytes());
        this.channel = (ssl ? builder.useTransportSecurity() : builder.usePlaintext()).build();
        this.target = url;
        this.options = options;
        this.blocking = GRPCInferenceServiceGrpc.newBlockingStub(channel);
        this.future = GRPCInferenceServiceGrpc.newFutureStub(channel);
    }

    /** @return whether the server is live */
    @Override
    public boolean isServerLive()
    {
        return call(() -> stub(null).serverLive(ServerLiveRequest.getDefaultInstance()).getLive());
    }

    /** @return whether the server is ready */
    @Override
    public boolean isServerReady()
    {
        return call(() -> stub(null).serverReady(ServerReadyRequest.getDefaultInstance()).getReady());
    }

    /** @return whether the model (any version when {@code version} is "") is ready */
    @Override
    public boolean isModelReady(final String model, final String version)
    {
        return call(() -> stub(null).modelReady(ModelReadyRequest.newBuilder().setName(model)
            .setVersion(version == null ? "" : version).build()).getReady());
    }

    /** @return the server's name, version and extensions */
    public ServerMetadataResponse serverMetadata()
    {
        return call(() -> stub(null).serverMetadata(ServerMetadataRequest.getDefaultInstance()));
    }

    /** @return the model's metadata */
    public ModelMetadataResponse modelMetadata(final String model, final String version)
    {
        return call(() -> stub(null).modelMetadata(ModelMetadataRequest.newBuilder().setName(model)
            .setVersion(version == null ? "" : version).build()));
    }

    /** @return the model's configuration */
    public ModelConfigResponse modelConfig(final String model, final String version)
    {
        return call(() -> stub(null).modelConfig(ModelConfigRequest.newBuilder().setName(model)
            .setVersion(version == null ? "" : version).build()));
    }

    /** @return the repository's models */
    public RepositoryIndexResponse modelRepositoryIndex()
    {
        return call(() -> stub(null).repositoryIndex(RepositoryIndexRequest.getDefaultInstance()));
    }

    /** Loads (or reloads) a model, with a JSON configuration unless {@code config} is null. */
    @Override
    public void loadModel(final String model, final String config)
    {
        final RepositoryModelLoadRequest.Builder request = RepositoryModelLoadRequest.newBuilder().setModelName(model);
        if (config != null)
        {
            request.putParameters("config", ModelRepositoryParameter.newBuilder().setStringParam(config).build());
        }
        call(() -> stub(null).repositoryModelLoad(request.build()));
    }

    /** Unloads a model (and an ensemble's models, with {@code unloadDependents}). */
    @Override
    public void unloadModel(final String model, final boolean unloadDependents)
    {
        call(() -> stub(null).repositoryModelUnload(RepositoryModelUnloadRequest.newBuilder().setModelName(model)
            .putParameters("unload_dependents", ModelRepositoryParameter.newBuilder()
                .setBoolParam(unloadDependents).build()).build()));
    }

    /** @return the statistics of the model (every model when {@code model} is "") */
    public ModelStatisticsResponse inferenceStatistics(final String model, final String version)
    {
        return call(() -> stub(null).modelStatistics(ModelStatisticsRequest.newBuilder()
            .setName(model == null ? "" : model).setVersion(version == null ? "" : version).build()));
    }

    /** @return the registered system shared-memory regions (the one named, unless "") */
    public SystemSharedMemoryStatusResponse systemSharedMemoryStatus(final String region)
    {
        return call(() -> stub(null).systemSharedMemoryStatus(SystemSharedMemoryStatusRequest.newBuilder()
            .setName(region == null ? "" : region).build()));
    }

    /**
     * Registers a POSIX shared-memory object with the server.
     *
     * @param name     the name requests will use for it
     * @param key      the object's key ({@code /name})
     * @param byteSize the registered part's size
     * @param offset   where the registered part starts
     */
    @Override
    public void registerSystemSharedMemory(final String name, final String key, final long byteSize, final long offset)
    {
        call(() -> stub(null).systemSharedMemoryRegister(SystemSharedMemoryRegisterRequest.newBuilder().setName(name)
            .setKey(key).setByteSize(byteSize).setOffset(offset).build()));
    }

    /** Unregisters a region, or every region when {@code name} is null or "". */
    @Override
    public void unregisterSystemSharedMemory(final String name)
    {
        call(() -> stub(null).systemSharedMemoryUnregister(SystemSharedMemoryUnregisterRequest.newBuilder()
            .setName(name == null ? "" : name).build()));
    }

    /**
     * Runs one inference and waits for its result.
     *
     * @param model   the model's name
     * @param inputs  its inputs
     * @param outputs the outputs to return (empty: all)
     * @param options version, id, sequence, priority, timeouts, parameters, metadata
     * @return the result
     */
    @Override
    public InferResult infer(final String model, final List<InferInput> inputs,
        final List<InferRequestedOutput> outputs, final InferOptions options)
    {
        return GrpcInferMessages.result(call(() -> stub(options)
            .modelInfer(GrpcInferMessages.request(model, inputs, outputs, options))), outputs);
    }

    /**
     * Starts one inference; the future completes with its result, or exceptionally with an
     * {@link InferenceServerException}, on gRPC's transport thread.
     *
     * @param model   the model's name
     * @param inputs  its inputs (encoded before this returns)
     * @param outputs the outputs to return
     * @param options the request's options
     * @return the result to come
     */
    @Override
    public CompletableFuture<InferResult> inferAsync(final String model, final List<InferInput> inputs,
        final List<InferRequestedOutput> outputs, final InferOptions options)
    {
        final CompletableFuture<InferResult> result = new CompletableFuture<>();
        final ListenableFuture<ModelInferResponse> call;
        try
        {
            call = futureStub(options).modelInfer(GrpcInferMessages.request(model, inputs, outputs, options));
        }
        catch (final InferenceServerException invalid)
        {
            return CompletableFuture.failedFuture(invalid);
        }
        Futures.addCallback(call, new FutureCallback<>()
        {
            @Override
            public void onSuccess(final ModelInferResponse response)
            {
                try
                {
                    result.complete(GrpcInferMessages.result(response, outputs));
                }
                catch (final RuntimeException malformed)
                {
                    result.completeExceptionally(malformed);
                }
            }

            @Override
            public void onFailure(final Throwable failure)
            {
                result.completeExceptionally(failure instanceof StatusRuntimeException status ? error(status)
                    : new InferenceServerException("gRPC client failed: " + failure, null, null, failure));
            }
        }, MoreExecutors.directExecutor());
        return result;
    }

    /** Shuts the channel down, waiting up to 10 s for calls in flight. */
    @Override
    public void close()
    {
        channel.shutdown();
        try
        {
            if (!channel.awaitTermination(10, TimeUnit.SECONDS))
            {
                channel.shutdownNow();
            }
        }
        catch (final InterruptedException interrupted)
        {
            channel.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    private GRPCInferenceServiceGrpc.GRPCInferenceServiceBlockingStub stub(final InferOptions call)
    {
        GRPCInferenceServiceGrpc.GRPCInferenceServiceBlockingStub stub = blocking;
        if (call != null && !call.headers().isEmpty())
        {
            stub = stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(metadata(call.headers())));
        }
        final Duration deadline = call != null && call.clientTimeout() != null ? call.clientTimeout()
            : options.networkTimeout();
        return deadline == null ? stub : stub.withDeadlineAfter(deadline.toNanos(), TimeUnit.NANOSECONDS);
    }

    private GRPCInferenceServiceGrpc.GRPCInferenceServiceFutureStub futureStub(final InferOptions call)
    {
        GRPCInferenceServiceGrpc.GRPCInferenceServiceFutureStub stub = future;
        if (!call.headers().isEmpty())
        {
            stub = stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(metadata(call.headers())));
        }
        final Duration deadline = call.clientTimeout() != null ? call.clientTimeout() : options.networkTimeout();
        return deadline == null ? stub : stub.withDeadlineAfter(deadline.toNanos(), TimeUnit.NANOSECONDS);
    }

    private static Metadata metadata(final Map<String, String> headers)
    {
        final Metadata metadata = new Metadata();
        headers.forEach((name, value) -> metadata.put(Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER),
            value));
        return metadata;
    }

    private <T> T call(final Supplier<T> rpc)
    {
        try
        {
            return rpc.get();
        }
        catch (final StatusRuntimeException failure)
        {
            throw error(failure);
        }
    }

    /** Triton's {@code get_error_grpc}, with what grpc-java leaves out of the description said. */
    private InferenceServerException error(final StatusRuntimeException failure)
    {
        final io.grpc.Status status = failure.getStatus();
        String message = status.getDescription() != null ? status.getDescription() : status.getCode().name();
        if (status.getCode() == io.grpc.Status.Code.UNAVAILABLE && status.getCause() != null)
        {
            message = "failed to connect to all addresses; last error: " + status.getCause().getMessage() + " ("
                + target + ")";
        }
        else if (status.getCode() == io.grpc.Status.Code.RESOURCE_EXHAUSTED
            && message.contains("exceeds maximum size " + options.maxResponseBytes()))
        {
            message = message + ": the response exceeds this client's limit of " + options.maxResponseBytes()
                + " bytes (ClientOptions.maxResponseBytes)";
        }
        return new InferenceServerException(message, "StatusCode." + status.getCode().name(), status.toString(),
            failure);
    }
}
