package io.ingot.client.grpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import io.ingot.client.InferInput;
import io.ingot.client.InferOptions;
import io.ingot.client.InferRequestedOutput;
import io.ingot.client.InferResult;
import io.ingot.client.TensorBytes;
import io.ingot.protocol.grpc.InferParameter;
import io.ingot.protocol.grpc.ModelInferRequest;
import io.ingot.protocol.grpc.ModelInferResponse;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The gRPC messages of an inference as Triton's Python client builds and reads them ({@code _get_inference_request},
 * {@code InferResult.as_numpy}): every input's data as one {@code raw_input_contents} entry (none for an input in
 * shared memory), the request's options as {@code parameters}; an output's data is the {@code raw_output_contents}
 * entry at its index, or its {@code bytes_contents}. Stateless.
 */
final class GrpcInferMessages
{
    private GrpcInferMessages()
    {
    }

    /**
     * @param model   the model's name
     * @param inputs  the inputs
     * @param outputs the outputs asked for (empty: all)
     * @param options the options
     * @return the request message
     */
    static ModelInferRequest request(final String model, final List<InferInput> inputs,
        final List<InferRequestedOutput> outputs, final InferOptions options)
    {
        final ModelInferRequest.Builder request = ModelInferRequest.newBuilder().setModelName(model)
            .setModelVersion(options.modelVersion()).setId(options.requestId());
        for (final InferInput input : inputs)
        {
            final ModelInferRequest.InferInputTensor.Builder tensor = ModelInferRequest.InferInputTensor.newBuilder()
                .setName(input.name()).setDatatype(input.datatype());
            for (final long dimension : input.shape())
            {
                tensor.addShape(dimension);
            }
            if (input.sharedMemoryRegion() != null)
            {
                tensor.putParameters("shared_memory_region", string(input.sharedMemoryRegion()));
                tensor.putParameters("shared_memory_byte_size", int64(input.sharedMemoryByteSize()));
                if (input.sharedMemoryOffset() != 0)
                {
                    tensor.putParameters("shared_memory_offset", int64(input.sharedMemoryOffset()));
                }
            }
            else if (input.rawData() != null)
            {
                // Not copied: the array stays the input's own until the message is written.
                request.addRawInputContents(UnsafeByteOperations.unsafeWrap(input.rawData()));
            }
            request.addInputs(tensor);
        }
        for (final InferRequestedOutput output : outputs)
        {
            final ModelInferRequest.InferRequestedOutputTensor.Builder tensor =
                ModelInferRequest.InferRequestedOutputTensor.newBuilder().setName(output.name());
            if (output.classCount() != 0)
            {
                tensor.putParameters("classification", int64(output.classCount()));
            }
            if (output.sharedMemoryRegion() != null)
            {
                tensor.putParameters("shared_memory_region", string(output.sharedMemoryRegion()));
                tensor.putParameters("shared_memory_byte_size", int64(output.sharedMemoryByteSize()));
                if (output.sharedMemoryOffset() != 0)
                {
                    tensor.putParameters("shared_memory_offset", int64(output.sharedMemoryOffset()));
                }
            }
            request.addOutputs(tensor);
        }
        if (options.hasSequence())
        {
            request.putParameters("sequence_id", options.sequenceIdString() != null
                ? string(options.sequenceIdString()) : int64(options.sequenceId()));
            request.putParameters("sequence_start", bool(options.sequenceStart()));
            request.putParameters("sequence_end", bool(options.sequenceEnd()));
        }
        if (options.priority() != 0)
        {
            request.putParameters("priority", InferParameter.newBuilder().setUint64Param(options.priority()).build());
        }
        if (options.timeoutMicros() != null)
        {
            request.putParameters("timeout", int64(options.timeoutMicros()));
        }
        for (final Map.Entry<String, Object> custom : options.parameters().entrySet())
        {
            request.putParameters(custom.getKey(), switch (custom.getValue())
            {
                case String text -> string(text);
                case Boolean flag -> bool(flag);
                case Double number -> InferParameter.newBuilder().setDoubleParam(number).build();
                case Number number -> int64(number.longValue());
                default -> throw new IllegalStateException("checked by InferOptions");
            });
        }
        return request.build();
    }

    /**
     * @param response  the response message
     * @param requested the outputs the request asked for (those placed in shared memory carry no data)
     * @return the result
     */
    static InferResult result(final ModelInferResponse response, final List<InferRequestedOutput> requested)
    {
        final Map<String, String> inSharedMemory = InferRequestedOutput.sharedMemoryRegions(requested);
        final List<InferResult.Output> outputs = new ArrayList<>(response.getOutputsCount());
        for (int i = 0; i < response.getOutputsCount(); i++)
        {
            final ModelInferResponse.InferOutputTensor output = response.getOutputs(i);
            final Map<String, Object> parameters = parameters(output.getParametersMap());
            if (inSharedMemory.containsKey(output.getName()))
            {
                parameters.putIfAbsent("shared_memory_region", inSharedMemory.get(output.getName()));
            }
            ByteBuffer data = null;
            if (!parameters.containsKey("shared_memory_region"))
            {
                if (i < response.getRawOutputContentsCount())
                {
                    data = response.getRawOutputContents(i).asReadOnlyByteBuffer();
                }
                else if (output.getContents().getBytesContentsCount() > 0)
                {
                    final List<byte[]> elements = new ArrayList<>();
                    for (final ByteString element : output.getContents().getBytesContentsList())
                    {
                        elements.add(element.toByteArray());
                    }
                    data = ByteBuffer.wrap(TensorBytes.serialize(elements));
                }
                else
                {
                    data = ByteBuffer.allocate(0);
                }
            }
            final long[] shape = new long[output.getShapeCount()];
            for (int d = 0; d < shape.length; d++)
            {
                shape[d] = output.getShape(d);
            }
            outputs.add(new InferResult.Output(output.getName(), output.getDatatype(), shape, data, parameters));
        }
        return new InferResult(response.getModelName(), response.getModelVersion(), response.getId(),
            parameters(response.getParametersMap()), outputs);
    }

    private static Map<String, Object> parameters(final Map<String, InferParameter> parameters)
    {
        final Map<String, Object> values = new LinkedHashMap<>();
        for (final Map.Entry<String, InferParameter> entry : parameters.entrySet())
        {
            final InferParameter parameter = entry.getValue();
            final Object value = switch (parameter.getParameterChoiceCase())
            {
                case BOOL_PARAM -> parameter.getBoolParam();
                case INT64_PARAM -> parameter.getInt64Param();
                case STRING_PARAM -> parameter.getStringParam();
                case DOUBLE_PARAM -> parameter.getDoubleParam();
                case UINT64_PARAM -> parameter.getUint64Param();
                default -> null;
            };
            if (value != null)
            {
                values.put(entry.getKey(), value);
            }
        }
        return values;
    }

    private static InferParameter string(final String value)
    {
        return InferParameter.newBuilder().setStringParam(value).build();
    }

    private static InferParameter int64(final long value)
    {
        return InferParameter.newBuilder().setInt64Param(value).build();
    }

    private static InferParameter bool(final boolean value)
    {
        return InferParameter.newBuilder().setBoolParam(value).build();
    }
}
