package io.ingot.server.grpc;

import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.ingot.api.DecoupledModelException;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelIndexEntry;
import io.ingot.api.ModelLoadOverrides;
import io.ingot.api.ResponseListener;
import io.ingot.api.ServerMetadata;
import io.ingot.server.protocol.InferCall;
import io.ingot.server.protocol.ModelVersions;
import io.ingot.server.protocol.ServerExtensions;
import io.ingot.protocol.grpc.CudaSharedMemoryRegisterRequest;
import io.ingot.protocol.grpc.CudaSharedMemoryRegisterResponse;
import io.ingot.protocol.grpc.CudaSharedMemoryStatusRequest;
import io.ingot.protocol.grpc.CudaSharedMemoryStatusResponse;
import io.ingot.protocol.grpc.CudaSharedMemoryUnregisterRequest;
import io.ingot.protocol.grpc.CudaSharedMemoryUnregisterResponse;
import io.ingot.protocol.grpc.GRPCInferenceServiceGrpc;
import io.ingot.protocol.grpc.LogSettingsRequest;
import io.ingot.protocol.grpc.LogSettingsResponse;
import io.ingot.protocol.grpc.ModelConfigRequest;
import io.ingot.protocol.grpc.ModelConfigResponse;
import io.ingot.protocol.grpc.ModelInferRequest;
import io.ingot.protocol.grpc.ModelInferResponse;
import io.ingot.protocol.grpc.ModelMetadataRequest;
import io.ingot.protocol.grpc.ModelMetadataResponse;
import io.ingot.protocol.grpc.ModelReadyRequest;
import io.ingot.protocol.grpc.ModelReadyResponse;
import io.ingot.protocol.grpc.ModelRepositoryParameter;
import io.ingot.protocol.grpc.ModelStatisticsRequest;
import io.ingot.protocol.grpc.ModelStatisticsResponse;
import io.ingot.protocol.grpc.ModelStreamInferResponse;
import io.ingot.protocol.grpc.RepositoryIndexRequest;
import io.ingot.protocol.grpc.RepositoryIndexResponse;
import io.ingot.protocol.grpc.RepositoryModelLoadRequest;
import io.ingot.protocol.grpc.RepositoryModelLoadResponse;
import io.ingot.protocol.grpc.RepositoryModelUnloadRequest;
import io.ingot.protocol.grpc.RepositoryModelUnloadResponse;
import io.ingot.protocol.grpc.ServerLiveRequest;
import io.ingot.protocol.grpc.ServerLiveResponse;
import io.ingot.protocol.grpc.ServerMetadataRequest;
import io.ingot.protocol.grpc.ServerMetadataResponse;
import io.ingot.protocol.grpc.ServerReadyRequest;
import io.ingot.protocol.grpc.ServerReadyResponse;
import io.ingot.protocol.grpc.SystemSharedMemoryRegisterRequest;
import io.ingot.protocol.grpc.SystemSharedMemoryRegisterResponse;
import io.ingot.protocol.grpc.SystemSharedMemoryStatusRequest;
import io.ingot.protocol.grpc.SystemSharedMemoryStatusResponse;
import io.ingot.protocol.grpc.SystemSharedMemoryUnregisterRequest;
import io.ingot.protocol.grpc.SystemSharedMemoryUnregisterResponse;
import io.ingot.protocol.grpc.TraceSettingRequest;
import io.ingot.protocol.grpc.TraceSettingResponse;
import io.ingot.server.shm.SharedMemoryRegion;
import io.ingot.server.shm.SystemSharedMemoryRegistry;
import io.ingot.server.trace.ServerTrace;
import io.ingot.server.trace.TraceFrontend;
import io.ingot.server.trace.TraceManager;
import io.ingot.server.trace.TraceSettingsApi;
import io.netty.buffer.ByteBufAllocator;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Triton's {@code inference.GRPCInferenceService} over Ingot's core: every RPC of Triton's service, with Triton's
 * status codes. Inference runs through the core's callback API; the callback encodes and sends the response.
 */
public final class GrpcInferenceService extends GRPCInferenceServiceGrpc.GRPCInferenceServiceImplBase
{
    private static final System.Logger LOG = System.getLogger(GrpcInferenceService.class.getName());

    private final InferenceCore core;
    private final SystemSharedMemoryRegistry sharedMemory;
    private final GrpcInferDecoder decoder;
    private final ByteBufAllocator allocator;
    private final TraceSettingsApi traceSettings;
    private final TraceManager tracer;

    /**
     * @param core         the core
     * @param sharedMemory registered regions (shared with the HTTP frontend)
     * @param allocator    where input copies and outputs are allocated
     */
    public GrpcInferenceService(final InferenceCore core, final SystemSharedMemoryRegistry sharedMemory,
        final ByteBufAllocator allocator)
    {
        this.core = core;
        this.sharedMemory = sharedMemory;
        this.decoder = new GrpcInferDecoder(core, sharedMemory);
        this.allocator = allocator;
        this.tracer = TraceManager.forCore(core);
        this.traceSettings = new TraceSettingsApi(core, tracer);
    }

    @Override
    public void serverLive(final ServerLiveRequest request, final StreamObserver<ServerLiveResponse> observer)
    {
        answer(observer, () -> ServerLiveResponse.newBuilder().setLive(core.isLive()).build());
    }

    @Override
    public void serverReady(final ServerReadyRequest request, final StreamObserver<ServerReadyResponse> observer)
    {
        answer(observer, () -> ServerReadyResponse.newBuilder().setReady(core.isReady()).build());
    }

    @Override
    public void modelReady(final ModelReadyRequest request, final StreamObserver<ModelReadyResponse> observer)
    {
        answer(observer, () ->
        {
            final long version = ModelVersions.parse(request.getVersion());
            if (core.isModelReady(request.getName(), version))
            {
                return ModelReadyResponse.newBuilder().setReady(true).build();
            }
            // An unknown model or version is an error status, not ready=false (as in Triton).
            try
            {
                core.modelMetadata(request.getName(), version);
            }
            catch (final InferenceException notServing)
            {
                if (notServing.code() != ErrorCode.UNAVAILABLE)
                {
                    throw notServing;
                }
            }
            return ModelReadyResponse.newBuilder().setReady(false).build();
        });
    }

    @Override
    public void serverMetadata(final ServerMetadataRequest request,
        final StreamObserver<ServerMetadataResponse> observer)
    {
        answer(observer, () ->
        {
            final ServerMetadata metadata = core.serverMetadata();
            return ServerMetadataResponse.newBuilder().setName(metadata.name()).setVersion(metadata.version())
                .addAllExtensions(ServerExtensions.SUPPORTED).build();
        });
    }

    @Override
    public void modelMetadata(final ModelMetadataRequest request,
        final StreamObserver<ModelMetadataResponse> observer)
    {
        answer(observer, () -> GrpcStatisticsMapper.metadata(
            core.modelMetadata(request.getName(), ModelVersions.parse(request.getVersion()))));
    }

    @Override
    public void modelConfig(final ModelConfigRequest request, final StreamObserver<ModelConfigResponse> observer)
    {
        answer(observer, () -> ModelConfigResponse.newBuilder()
            .setConfig(core.modelConfig(request.getName(), ModelVersions.parse(request.getVersion()))).build());
    }

    @Override
    public void modelStatistics(final ModelStatisticsRequest request,
        final StreamObserver<ModelStatisticsResponse> observer)
    {
        answer(observer, () ->
        {
            final ModelStatisticsResponse.Builder response = ModelStatisticsResponse.newBuilder();
            for (final io.ingot.api.ModelStatistics stats : core.modelStatistics(
                request.getName().isEmpty() ? null : request.getName(), ModelVersions.parse(request.getVersion())))
            {
                response.addModelStats(GrpcStatisticsMapper.statistics(stats));
            }
            return response.build();
        });
    }

    @Override
    public void repositoryIndex(final RepositoryIndexRequest request,
        final StreamObserver<RepositoryIndexResponse> observer)
    {
        answer(observer, () ->
        {
            final RepositoryIndexResponse.Builder response = RepositoryIndexResponse.newBuilder();
            for (final ModelIndexEntry entry : core.repositoryIndex(request.getReady()))
            {
                response.addModels(RepositoryIndexResponse.ModelIndex.newBuilder()
                    .setName(entry.name())
                    .setVersion(nullToEmpty(entry.version()))
                    .setState(nullToEmpty(entry.state()))
                    .setReason(nullToEmpty(entry.reason())));
            }
            return response.build();
        });
    }

    @Override
    public void repositoryModelLoad(final RepositoryModelLoadRequest request,
        final StreamObserver<RepositoryModelLoadResponse> observer)
    {
        answer(observer, () ->
        {
            requireNoRepositoryName(request.getRepositoryName());
            core.loadModel(request.getModelName(), loadOverrides(request.getParametersMap()));
            return RepositoryModelLoadResponse.getDefaultInstance();
        });
    }

    /** Triton's load parameters: {@code config} as string_param, {@code file:<path>} as bytes_param. */
    private static ModelLoadOverrides loadOverrides(final Map<String, ModelRepositoryParameter> parameters)
    {
        String config = null;
        final Map<String, byte[]> files = new LinkedHashMap<>();
        for (final Map.Entry<String, ModelRepositoryParameter> parameter : parameters.entrySet())
        {
            final String name = parameter.getKey();
            final ModelRepositoryParameter value = parameter.getValue();
            if (name.equals("config"))
            {
                if (value.getParameterChoiceCase() != ModelRepositoryParameter.ParameterChoiceCase.STRING_PARAM)
                {
                    throw new InferenceException(ErrorCode.INVALID_ARG, "invalid value type for load parameter '"
                        + name + "', expected string_param.");
                }
                config = value.getStringParam();
            }
            else if (name.startsWith("file:"))
            {
                if (value.getParameterChoiceCase() != ModelRepositoryParameter.ParameterChoiceCase.BYTES_PARAM)
                {
                    throw new InferenceException(ErrorCode.INVALID_ARG, "invalid value type for load parameter '"
                        + name + "', expected bytes_param.");
                }
                files.put(name.substring("file:".length()), value.getBytesParam().toByteArray());
            }
            else
            {
                throw new InferenceException(ErrorCode.INVALID_ARG, "unrecognized load parameter '" + name + "'.");
            }
        }
        return new ModelLoadOverrides(config, files);
    }

    @Override
    public void repositoryModelUnload(final RepositoryModelUnloadRequest request,
        final StreamObserver<RepositoryModelUnloadResponse> observer)
    {
        answer(observer, () ->
        {
            requireNoRepositoryName(request.getRepositoryName());
            boolean unloadDependents = false;
            final ModelRepositoryParameter dependents = request.getParametersMap().get("unload_dependents");
            if (dependents != null)
            {
                if (dependents.getParameterChoiceCase() != ModelRepositoryParameter.ParameterChoiceCase.BOOL_PARAM)
                {
                    throw new InferenceException(ErrorCode.INVALID_ARG,
                        "invalid value type for 'unload_dependents' parameter, expected bool_param.");
                }
                unloadDependents = dependents.getBoolParam();
            }
            core.unloadModel(request.getModelName(), unloadDependents);
            return RepositoryModelUnloadResponse.getDefaultInstance();
        });
    }

    private static void requireNoRepositoryName(final String repository)
    {
        if (!repository.isEmpty())
        {
            throw new InferenceException(ErrorCode.UNSUPPORTED, "'repository_name' specification is not supported");
        }
    }

    @Override
    public void systemSharedMemoryStatus(final SystemSharedMemoryStatusRequest request,
        final StreamObserver<SystemSharedMemoryStatusResponse> observer)
    {
        answer(observer, () ->
        {
            final SystemSharedMemoryStatusResponse.Builder response = SystemSharedMemoryStatusResponse.newBuilder();
            for (final SharedMemoryRegion region : sharedMemory.status(request.getName()))
            {
                response.putRegions(region.name(), SystemSharedMemoryStatusResponse.RegionStatus.newBuilder()
                    .setName(region.name()).setKey(region.key()).setOffset(region.offset())
                    .setByteSize(region.byteSize()).build());
            }
            return response.build();
        });
    }

    @Override
    public void systemSharedMemoryRegister(final SystemSharedMemoryRegisterRequest request,
        final StreamObserver<SystemSharedMemoryRegisterResponse> observer)
    {
        answer(observer, () ->
        {
            sharedMemory.register(request.getName(), request.getKey(), request.getOffset(), request.getByteSize());
            return SystemSharedMemoryRegisterResponse.getDefaultInstance();
        });
    }

    @Override
    public void systemSharedMemoryUnregister(final SystemSharedMemoryUnregisterRequest request,
        final StreamObserver<SystemSharedMemoryUnregisterResponse> observer)
    {
        answer(observer, () ->
        {
            if (request.getName().isEmpty())
            {
                sharedMemory.unregisterAll();
            }
            else
            {
                sharedMemory.unregister(request.getName());
            }
            return SystemSharedMemoryUnregisterResponse.getDefaultInstance();
        });
    }

    @Override
    public void cudaSharedMemoryStatus(final CudaSharedMemoryStatusRequest request,
        final StreamObserver<CudaSharedMemoryStatusResponse> observer)
    {
        answer(observer, () ->
        {
            if (!request.getName().isEmpty())
            {
                throw new InferenceException(ErrorCode.NOT_FOUND, "Unable to find cuda shared memory region: '"
                    + request.getName() + "'");
            }
            return CudaSharedMemoryStatusResponse.getDefaultInstance();
        });
    }

    @Override
    public void cudaSharedMemoryRegister(final CudaSharedMemoryRegisterRequest request,
        final StreamObserver<CudaSharedMemoryRegisterResponse> observer)
    {
        answer(observer, () ->
        {
            sharedMemory.requireClientShm();
            throw new InferenceException(ErrorCode.UNSUPPORTED, "CUDA shared memory is not supported by this "
                + "server: register region '" + request.getName() + "' as system shared memory instead");
        });
    }

    @Override
    public void cudaSharedMemoryUnregister(final CudaSharedMemoryUnregisterRequest request,
        final StreamObserver<CudaSharedMemoryUnregisterResponse> observer)
    {
        answer(observer, () ->
        {
            sharedMemory.requireClientShm();
            return CudaSharedMemoryUnregisterResponse.getDefaultInstance();
        });
    }

    @Override
    public void traceSetting(final TraceSettingRequest request, final StreamObserver<TraceSettingResponse> observer)
    {
        answer(observer, () -> traceSettings.grpc(request));
    }

    @Override
    public void logSettings(final LogSettingsRequest request, final StreamObserver<LogSettingsResponse> observer)
    {
        answer(observer, () -> GrpcLogSettings.answer(request));
    }

    @Override
    public void modelInfer(final ModelInferRequest request, final StreamObserver<ModelInferResponse> observer)
    {
        // Sampling is one volatile read while tracing is off. gRPC hands over the message whole, so the wait for the
        // read is what the service sees of it: from the call to the decoded request.
        final ServerTrace trace = tracer.sample(request.getModelName(), TraceFrontend.GRPC);
        final long receivedNs = trace == null ? 0 : System.nanoTime();
        final InferCall call;
        try
        {
            call = new InferCall(allocator, request.getModelName(), ModelVersions.parse(request.getModelVersion()));
        }
        catch (final InferenceException failure)
        {
            observer.onError(GrpcStatuses.of(failure));
            return;
        }
        try
        {
            decoder.decode(request, call);
            if (trace != null)
            {
                trace.received(receivedNs, System.nanoTime());
                call.request().trace(trace.core());
            }
            if (observer instanceof ServerCallStreamObserver<ModelInferResponse> server)
            {
                // Triton's infer_handler.cc: a client that cancels the call cancels the request (answered CANCELLED
                // while it is queued; one already executing completes).
                final InferenceRequest cancellable = call.request();
                server.setOnCancelHandler(cancellable::cancel);
            }
            core.submit(call.request(), new UnaryExchange(call, observer, trace, tracer));
        }
        catch (final DecoupledModelException decoupled)
        {
            // Triton's infer_handler.cc: a decoupled model answers only on the stream.
            call.release();
            observer.onError(GrpcStatuses.of(new InferenceException(ErrorCode.UNSUPPORTED,
                "ModelInfer RPC doesn't support models with decoupled transaction policy")));
        }
        catch (final InferenceException failure)
        {
            call.release();
            observer.onError(GrpcStatuses.of(failure));
        }
        catch (final RuntimeException bug)
        {
            call.release();
            LOG.log(System.Logger.Level.ERROR, "gRPC inference for model '" + request.getModelName() + "' failed",
                bug);
            observer.onError(Status.INTERNAL.withDescription("internal error while submitting the request for model '"
                + request.getModelName() + "': " + bug).asRuntimeException());
        }
    }

    @Override
    public StreamObserver<ModelInferRequest> modelStreamInfer(
        final StreamObserver<ModelStreamInferResponse> observer)
    {
        return new GrpcInferStream(core, decoder, allocator, observer);
    }

    private static <T> void answer(final StreamObserver<T> observer, final Supplier<T> body)
    {
        final T value;
        try
        {
            value = body.get();
        }
        catch (final InferenceException failure)
        {
            observer.onError(GrpcStatuses.of(failure));
            return;
        }
        catch (final RuntimeException bug)
        {
            LOG.log(System.Logger.Level.ERROR, "gRPC call failed", bug);
            observer.onError(Status.INTERNAL.withDescription("internal error: " + bug).asRuntimeException());
            return;
        }
        observer.onNext(value);
        observer.onCompleted();
    }

    private static String nullToEmpty(final String value)
    {
        return value == null ? "" : value;
    }

    /** One unary inference in flight: the core's callback encodes and sends the response, then frees the call. */
    private static final class UnaryExchange implements ResponseListener
    {
        private final InferCall call;
        private final StreamObserver<ModelInferResponse> observer;
        private final ServerTrace trace;
        private final TraceManager tracer;

        UnaryExchange(final InferCall call, final StreamObserver<ModelInferResponse> observer,
            final ServerTrace trace, final TraceManager tracer)
        {
            this.call = call;
            this.observer = observer;
            this.trace = trace;
            this.tracer = tracer;
        }

        @Override
        public void onResponse(final InferenceResponse response)
        {
            if (trace == null)
            {
                send(response);
                return;
            }
            trace.sendStarted(System.nanoTime());
            trace.answeredBy(call.request().id(), response.isOk() ? response.modelVersion()
                : call.request().modelVersion());
            send(response);
            trace.sendEnded(System.nanoTime());
            tracer.complete(trace);
        }

        private void send(final InferenceResponse response)
        {
            GrpcInferEncoder.Encoded encoded = null;
            try
            {
                if (!response.isOk())
                {
                    throw response.error();
                }
                encoded = GrpcInferEncoder.encode(call, response);
            }
            catch (final InferenceException failure)
            {
                finish(response);
                safely(() -> observer.onError(GrpcStatuses.of(failure)));
                return;
            }
            catch (final RuntimeException bug)
            {
                finish(response);
                LOG.log(System.Logger.Level.ERROR, "failed to encode a gRPC response", bug);
                safely(() -> observer.onError(Status.INTERNAL.withDescription("internal error while encoding the "
                    + "response: " + bug).asRuntimeException()));
                return;
            }
            final GrpcInferEncoder.Encoded message = encoded;
            try
            {
                // onNext serializes the message, copying the wrapped output buffers; they may be freed after it.
                safely(() ->
                {
                    observer.onNext(message.message());
                    observer.onCompleted();
                });
            }
            finally
            {
                message.release();
                finish(response);
            }
        }

        private void finish(final InferenceResponse response)
        {
            response.close();
            call.release();
        }

        private void safely(final Runnable send)
        {
            if (observer instanceof ServerCallStreamObserver<?> server && server.isCancelled())
            {
                return;
            }
            try
            {
                send.run();
            }
            catch (final RuntimeException clientGone)
            {
                LOG.log(System.Logger.Level.DEBUG, "could not send a gRPC response: the call ended", clientGone);
            }
        }
    }
}
