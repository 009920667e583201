package io.ingot.perf;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.ingot.tensor.DataType;
import io.ingot.api.TensorMetadata;
import io.ingot.protocol.grpc.GRPCInferenceServiceGrpc;
import io.ingot.protocol.grpc.InferStatistics;
import io.ingot.protocol.grpc.ModelConfigRequest;
import io.ingot.protocol.grpc.ModelInferRequest;
import io.ingot.protocol.grpc.ModelInferResponse;
import io.ingot.protocol.grpc.ModelMetadataRequest;
import io.ingot.protocol.grpc.ModelMetadataResponse;
import io.ingot.protocol.grpc.ModelStatistics;
import io.ingot.protocol.grpc.ModelStatisticsRequest;

import com.google.protobuf.ByteString;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A KServe v2 server over gRPC ({@code inference.GRPCInferenceService}), with the stubs generated from the server
 * module's {@code grpc_service.proto}. As perf_analyzer does, tensors travel in {@code raw_input_contents} and every
 * output is requested; the request message is built once and reused. One channel (HTTP/2, multiplexed) serves every
 * client. Statistics come from the {@code ModelStatistics} RPC.
 */
public final class GrpcTarget implements LoadTarget
{
    private static final long CONTROL_DEADLINE_S = 30;

    private final String address;
    private final String model;
    private final String version;
    private final ManagedChannel channel;
    private final GRPCInferenceServiceGrpc.GRPCInferenceServiceBlockingStub blocking;
    private final GRPCInferenceServiceGrpc.GRPCInferenceServiceStub async;
    private ModelInferRequest infer;

    /**
     * @param url     {@code host:port}
     * @param model   the model
     * @param version its version, {@code ""} for the server's choice
     * @throws PerfException (usage) for a malformed address or version
     */
    public GrpcTarget(final String url, final String model, final String version)
    {
        if (!version.isEmpty() && !version.chars().allMatch(Character::isDigit))
        {
            throw PerfException.usage("-x/--model-version must be a whole number, got '" + version + "'");
        }
        final URI uri;
        try
        {
            uri = URI.create("grpc://" + url.replaceFirst("^grpc://", ""));
            if (uri.getHost() == null || uri.getPort() < 0)
            {
                throw new IllegalArgumentException(url);
            }
        }
        catch (final IllegalArgumentException ex)
        {
            throw PerfException.usage("-u/--url expects host:port for gRPC, e.g. localhost:8001; got '" + url + "'");
        }
        this.address = uri.getHost() + ":" + uri.getPort();
        this.model = model;
        this.version = version;
        this.channel = NettyChannelBuilder.forAddress(uri.getHost(), uri.getPort()).usePlaintext()
            .maxInboundMessageSize(Integer.MAX_VALUE).build();
        this.blocking = GRPCInferenceServiceGrpc.newBlockingStub(channel);
        this.async = GRPCInferenceServiceGrpc.newStub(channel);
    }

    @Override
    public String describe()
    {
        return "gRPC " + address;
    }

    private GRPCInferenceServiceGrpc.GRPCInferenceServiceBlockingStub control()
    {
        return blocking.withDeadlineAfter(CONTROL_DEADLINE_S, TimeUnit.SECONDS);
    }

    @Override
    public ModelInfo modelInfo()
    {
        try
        {
            final ModelMetadataResponse metadata = control().modelMetadata(ModelMetadataRequest.newBuilder()
                .setName(model).setVersion(version).build());
            final int maxBatchSize = control().modelConfig(ModelConfigRequest.newBuilder().setName(model)
                .setVersion(version).build()).getConfig().getMaxBatchSize();
            return new ModelInfo(maxBatchSize, tensors(metadata.getInputsList()),
                metadata.getOutputsList().stream().map(ModelMetadataResponse.TensorMetadata::getName).toList());
        }
        catch (final StatusRuntimeException ex)
        {
            throw PerfException.failure(describe(ex, "cannot read model '" + model + "'"), ex);
        }
    }

    private List<TensorMetadata> tensors(final List<ModelMetadataResponse.TensorMetadata> tensors)
    {
        final List<TensorMetadata> result = new ArrayList<>();
        for (final ModelMetadataResponse.TensorMetadata tensor : tensors)
        {
            final DataType type;
            try
            {
                type = DataType.fromWireName(tensor.getDatatype());
            }
            catch (final IllegalArgumentException ex)
            {
                throw PerfException.failure("model '" + model + "' at " + address + " reports tensor '"
                    + tensor.getName() + "' of unknown datatype '" + tensor.getDatatype() + "'");
            }
            result.add(new TensorMetadata(tensor.getName(), type, List.copyOf(tensor.getShapeList())));
        }
        return result;
    }

    private String describe(final StatusRuntimeException ex, final String what)
    {
        final Status status = ex.getStatus();
        // A transport failure carries its cause; a status the server sent (UNAVAILABLE for a model that is not
        // ready, say) does not.
        if (status.getCode() == Status.Code.UNAVAILABLE && status.getCause() != null)
        {
            return "cannot reach the gRPC endpoint " + address + " (" + status.getCode()
                + (status.getDescription() == null ? "" : ": " + status.getDescription())
                + "): is a server listening there (ingot serve --grpc-port ...)?";
        }
        return what + " at " + address + ": " + status.getCode()
            + (status.getDescription() == null ? "" : " " + status.getDescription());
    }

    @Override
    public void prepare(final RequestInputs inputs)
    {
        final ModelInferRequest.Builder request = ModelInferRequest.newBuilder().setModelName(model)
            .setModelVersion(version);
        for (final RequestInputs.Tensor tensor : inputs.inputs())
        {
            final ModelInferRequest.InferInputTensor.Builder input = ModelInferRequest.InferInputTensor.newBuilder()
                .setName(tensor.name()).setDatatype(tensor.dataType().wireName());
            for (final long dim : tensor.shape())
            {
                input.addShape(dim);
            }
            request.addInputs(input);
            request.addRawInputContents(ByteString.copyFrom(tensor.data()));
        }
        for (final String output : inputs.outputs())
        {
            request.addOutputs(ModelInferRequest.InferRequestedOutputTensor.newBuilder().setName(output));
        }
        infer = request.build();
    }

    @Override
    public LoadClient newClient()
    {
        if (infer == null)
        {
            throw new IllegalStateException("prepare() must be called before clients are made");
        }
        return new Client();
    }

    @Override
    public ServerCounters counters()
    {
        try
        {
            long inferences = 0;
            long executions = 0;
            long successes = 0;
            long requestNs = 0;
            long queueNs = 0;
            long inputNs = 0;
            long inferNs = 0;
            long outputNs = 0;
            for (final ModelStatistics stats : control().modelStatistics(ModelStatisticsRequest.newBuilder()
                .setName(model).setVersion(version).build()).getModelStatsList())
            {
                final InferStatistics inference = stats.getInferenceStats();
                inferences += stats.getInferenceCount();
                executions += stats.getExecutionCount();
                successes += inference.getSuccess().getCount();
                requestNs += inference.getSuccess().getNs();
                queueNs += inference.getQueue().getNs();
                inputNs += inference.getComputeInput().getNs();
                inferNs += inference.getComputeInfer().getNs();
                outputNs += inference.getComputeOutput().getNs();
            }
            return new ServerCounters(inferences, executions, successes, requestNs, queueNs, inputNs, inferNs,
                outputNs);
        }
        catch (final StatusRuntimeException ex)
        {
            throw PerfException.failure(describe(ex, "cannot read the statistics of model '" + model + "'"), ex);
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
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** One client: the shared, immutable request, over the shared channel. */
    private final class Client implements LoadClient
    {
        @Override
        public String call()
        {
            try
            {
                blocking.modelInfer(infer);
                return null;
            }
            catch (final StatusRuntimeException ex)
            {
                return describe(ex, "inference failed");
            }
        }

        @Override
        public void send(final Sink sink)
        {
            async.modelInfer(infer, new StreamObserver<>()
            {
                @Override
                public void onNext(final ModelInferResponse response)
                {
                }

                @Override
                public void onError(final Throwable failure)
                {
                    sink.completed(failure instanceof StatusRuntimeException status
                        ? describe(status, "inference failed") : failure.toString());
                }

                @Override
                public void onCompleted()
                {
                    sink.completed(null);
                }
            });
        }
    }
}
