package io.ingot.server.grpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceResponse;
import io.ingot.api.OutputTensor;
import io.ingot.server.protocol.Classification;
import io.ingot.server.protocol.InferCall;
import io.ingot.server.protocol.ModelVersions;
import io.ingot.server.protocol.RequestedOutput;
import io.ingot.protocol.grpc.InferParameter;
import io.ingot.protocol.grpc.ModelInferResponse;
import io.ingot.tensor.DataType;
import io.netty.buffer.ByteBuf;

import java.util.ArrayList;
import java.util.List;

/**
 * Builds a {@code ModelInferResponse} as Triton does: every output in {@code outputs} with one
 * {@code raw_output_contents} entry each, in the same order (empty for shared-memory outputs), never typed contents.
 *
 * <p>Raw entries wrap the buffers the core wrote the outputs into; gRPC copies them once while serializing the
 * message, after which {@link Encoded#release()} frees them.
 */
public final class GrpcInferEncoder
{
    /** The response parameter Triton's stream sets on each response: whether it is its request's last. */
    static final String FINAL_RESPONSE = "triton_final_response";
    private static final InferParameter FINAL = InferParameter.newBuilder().setBoolParam(true).build();
    private static final InferParameter NOT_FINAL = InferParameter.newBuilder().setBoolParam(false).build();

    private GrpcInferEncoder()
    {
    }

    /**
     * @param last whether the response is its request's last
     * @return the value of {@value #FINAL_RESPONSE} (shared immutable messages)
     */
    static InferParameter finalParameter(final boolean last)
    {
        return last ? FINAL : NOT_FINAL;
    }

    /**
     * A response message and the buffers it wraps.
     *
     * @param message the message; valid until {@link #release()}
     * @param buffers the buffers its raw contents wrap
     */
    public record Encoded(ModelInferResponse message, List<ByteBuf> buffers)
    {
        /** Frees the wrapped buffers; call once the message was serialized. */
        public void release()
        {
            for (final ByteBuf buffer : buffers)
            {
                buffer.release();
            }
        }
    }

    /**
     * @param call     the call
     * @param response the successful response
     * @return the message of a unary {@code ModelInfer}, without Triton's stream parameters
     * @throws InferenceException when an output cannot be placed as requested
     */
    public static Encoded encode(final InferCall call, final InferenceResponse response)
    {
        return encode(call, response, null);
    }

    /**
     * @param call     the call
     * @param response the successful response
     * @param last     whether it is its request's final response
     * @return the message of a {@code ModelStreamInfer} response, with {@code parameters["triton_final_response"]}
     *         set to {@code last}, as Triton sets it on every streamed response
     * @throws InferenceException when an output cannot be placed as requested
     */
    public static Encoded encodeStreamed(final InferCall call, final InferenceResponse response, final boolean last)
    {
        return encode(call, response, last ? Boolean.TRUE : Boolean.FALSE);
    }

    private static Encoded encode(final InferCall call, final InferenceResponse response, final Boolean finalFlag)
    {
        final List<ByteBuf> buffers = new ArrayList<>(response.outputCount());
        try
        {
            final ModelInferResponse.Builder message = ModelInferResponse.newBuilder()
                .setModelName(response.modelName())
                .setModelVersion(ModelVersions.format(response.modelVersion()))
                .setId(response.id());
            if (finalFlag != null)
            {
                message.putParameters(FINAL_RESPONSE, finalParameter(finalFlag));
            }
            for (int i = 0; i < response.outputCount(); i++)
            {
                final OutputTensor tensor = response.output(i);
                final RequestedOutput plan = call.output(tensor.name());
                if (plan.allocationError() != null)
                {
                    throw new InferenceException(ErrorCode.INVALID_ARG, plan.allocationError());
                }
                if (plan.classCount() > 0)
                {
                    final Classification.Result result = plan.classification(tensor.dataType(), tensor.shape(),
                        tensor.data(), call.allocator());
                    buffers.add(result.bytes());
                    final ModelInferResponse.InferOutputTensor.Builder output = ModelInferResponse.InferOutputTensor
                        .newBuilder().setName(tensor.name()).setDatatype(DataType.BYTES.wireName());
                    for (final long dim : result.shape())
                    {
                        output.addShape(dim);
                    }
                    message.addOutputs(output);
                    message.addRawOutputContents(UnsafeByteOperations.unsafeWrap(result.bytes().nioBuffer()));
                    continue;
                }
                final ModelInferResponse.InferOutputTensor.Builder output = ModelInferResponse.InferOutputTensor
                    .newBuilder().setName(tensor.name()).setDatatype(tensor.dataType().wireName());
                for (int d = 0; d < tensor.rank(); d++)
                {
                    output.addShape(tensor.dim(d));
                }
                message.addOutputs(output);
                if (plan.sharedMemory() != null)
                {
                    call.placeInSharedMemory(plan, tensor);
                    message.addRawOutputContents(ByteString.EMPTY);
                }
                else
                {
                    final ByteBuf bytes = call.takeOutputBytes(plan, tensor);
                    buffers.add(bytes);
                    message.addRawOutputContents(UnsafeByteOperations.unsafeWrap(bytes.nioBuffer()));
                }
            }
            return new Encoded(message.build(), buffers);
        }
        catch (final RuntimeException failure)
        {
            for (final ByteBuf buffer : buffers)
            {
                buffer.release();
            }
            throw failure;
        }
    }
}
