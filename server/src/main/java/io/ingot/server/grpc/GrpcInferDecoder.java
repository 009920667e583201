package io.ingot.server.grpc;

import com.google.protobuf.ByteString;
import io.ingot.tensor.DataType;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.server.protocol.Classification;
import io.ingot.server.protocol.InferCall;
import io.ingot.server.protocol.RequestParameters;
import io.ingot.server.protocol.RequestedOutput;
import io.ingot.server.protocol.TensorLayout;
import io.ingot.protocol.grpc.InferParameter;
import io.ingot.protocol.grpc.InferTensorContents;
import io.ingot.protocol.grpc.ModelInferRequest;
import io.ingot.server.shm.ShmSlice;
import io.ingot.server.shm.SystemSharedMemoryRegistry;
import io.netty.buffer.ByteBuf;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Turns a {@code ModelInferRequest} into an {@link InferCall}, with Triton's gRPC rules: {@code raw_input_contents}
 * entries belong, in order, to the inputs not in shared memory; typed {@code contents} are accepted when no raw
 * data is sent, and never mixed with it; request parameters are typed as Triton's clients send them; every output
 * is returned raw.
 *
 * <p>Raw input bytes are not copied: inputs are views of the request message's byte strings.
 */
public final class GrpcInferDecoder
{
    private static final String TRITON_EMPTY_FINAL_RESPONSE = "triton_enable_empty_final_response";

    private final InferenceCore core;
    private final SystemSharedMemoryRegistry sharedMemory;

    /**
     * @param core         the core, asked for the labels and batching of outputs requested as classification
     * @param sharedMemory registered regions
     */
    public GrpcInferDecoder(final InferenceCore core, final SystemSharedMemoryRegistry sharedMemory)
    {
        this.core = core;
        this.sharedMemory = sharedMemory;
    }

    /**
     * Fills a call. On failure everything acquired stays owned by the call: release it.
     *
     * @param request the message (must outlive the call)
     * @param call    the call, created for the request's model and version
     * @throws InferenceException INVALID_ARG (or UNSUPPORTED) naming the problem
     */
    public void decode(final ModelInferRequest request, final InferCall call)
    {
        call.request().id(request.getId());
        applyParameters(call, request.getParametersMap());
        final List<ByteString> raw = request.getRawInputContentsList();
        int rawIndex = 0;
        for (final ModelInferRequest.InferInputTensor input : request.getInputsList())
        {
            rawIndex = decodeInput(call, input, raw, rawIndex);
        }
        if (rawIndex != raw.size())
        {
            throw invalid("raw_input_contents has " + raw.size() + " entries but only " + rawIndex
                + " inputs take raw data (one entry per input not in shared memory, in input order)");
        }
        for (final ModelInferRequest.InferRequestedOutputTensor output : request.getOutputsList())
        {
            decodeOutput(call, output);
        }
        call.defaultBinary(true);
    }

    private static void applyParameters(final InferCall call, final Map<String, InferParameter> parameters)
    {
        for (final Map.Entry<String, InferParameter> entry : parameters.entrySet())
        {
            final String key = entry.getKey();
            final InferParameter value = entry.getValue();
            switch (key)
            {
                case RequestParameters.PRIORITY -> RequestParameters.applyPriority(call.request(), switch (value
                    .getParameterChoiceCase())
                {
                    case INT64_PARAM -> value.getInt64Param();
                    // uint64 beyond Long.MAX_VALUE is above every priority level: the default level, as in Triton.
                    case UINT64_PARAM -> value.getUint64Param() < 0 ? Long.MAX_VALUE : value.getUint64Param();
                    default -> throw invalid("Unable to parse 'priority': expected int64_param or uint64_param, got "
                        + value.getParameterChoiceCase());
                });
                case RequestParameters.TIMEOUT ->
                {
                    if (value.getParameterChoiceCase() != InferParameter.ParameterChoiceCase.INT64_PARAM)
                    {
                        throw invalid("Unable to parse 'timeout': expected int64_param (microseconds), got "
                            + value.getParameterChoiceCase());
                    }
                    RequestParameters.applyTimeout(call.request(), value.getInt64Param());
                }
                case RequestParameters.SEQUENCE_ID ->
                {
                    // Triton's infer_handler.cc: int64_param (cast to uint64) or string_param, nothing else.
                    switch (value.getParameterChoiceCase())
                    {
                        case INT64_PARAM -> RequestParameters.applySequenceId(call.request(), value.getInt64Param());
                        case STRING_PARAM -> RequestParameters.applySequenceId(call.request(),
                            value.getStringParam());
                        default -> throw invalid("invalid value type for 'sequence_id' parameter, expected "
                            + "int64_param or string_param.");
                    }
                }
                case RequestParameters.SEQUENCE_START, RequestParameters.SEQUENCE_END ->
                {
                    if (value.getParameterChoiceCase() != InferParameter.ParameterChoiceCase.BOOL_PARAM)
                    {
                        throw invalid("invalid value type for '" + key + "' parameter, expected bool_param.");
                    }
                    RequestParameters.applySequenceFlag(call.request(), key, value.getBoolParam());
                }
                case RequestParameters.HEADERS, RequestParameters.BINARY_DATA_OUTPUT ->
                {
                    // reserved; nothing to do over gRPC
                }
                case TRITON_EMPTY_FINAL_RESPONSE ->
                {
                    // Triton's infer_handler.cc SetStateParameterFromTritonParameter.
                    if (value.getParameterChoiceCase() != InferParameter.ParameterChoiceCase.BOOL_PARAM)
                    {
                        throw invalid("invalid value type for '" + key + "' parameter, expected bool_param.");
                    }
                    call.emptyFinalResponse(value.getBoolParam());
                }
                default ->
                {
                    if (RequestParameters.isTritonReserved(key))
                    {
                        throw RequestParameters.tritonReservedOverGrpc(key);
                    }
                    RequestParameters.applyCustom(call.request(), key, switch (value.getParameterChoiceCase())
                    {
                        case INT64_PARAM -> value.getInt64Param();
                        case BOOL_PARAM -> value.getBoolParam();
                        case STRING_PARAM -> value.getStringParam();
                        case DOUBLE_PARAM -> value.getDoubleParam();
                        // Triton's infer_handler.cc text.
                        default -> throw invalid("invalid value type for '" + key + "' parameter, expected "
                            + "int64_param, bool_param, or string_param.");
                    });
                }
            }
        }
    }

    private int decodeInput(final InferCall call, final ModelInferRequest.InferInputTensor input,
        final List<ByteString> raw, final int rawIndex)
    {
        final String name = input.getName();
        final DataType dataType = DataType.fromWireName(input.getDatatype());
        if (dataType == null)
        {
            throw invalid("invalid datatype '" + input.getDatatype() + "' of input '" + name + "'; expected one of "
                + Arrays.toString(DataType.values()));
        }
        final long[] shape = new long[input.getShapeCount()];
        for (int i = 0; i < shape.length; i++)
        {
            shape[i] = input.getShape(i);
        }
        final long elements = TensorLayout.elementCount(name, shape);
        final Map<String, InferParameter> parameters = input.getParametersMap();
        final InferParameter region = parameters.get("shared_memory_region");
        final boolean hasContents = input.hasContents() && !isEmpty(input.getContents());
        final MemorySegment memory;
        int next = rawIndex;
        if (region != null)
        {
            if (hasContents)
            {
                throw invalid("unexpected 'content' provided when using shared memory for input tensor '" + name
                    + "' for model '" + call.request().modelName() + "'");
            }
            final ShmSlice slice = call.ownInput(acquire(parameters, region, name));
            memory = slice.memory();
        }
        else if (!raw.isEmpty())
        {
            if (hasContents)
            {
                throw invalid("contents field must not be specified when using raw_input_contents for '" + name
                    + "' for model '" + call.request().modelName() + "'");
            }
            if (rawIndex >= raw.size())
            {
                throw invalid("unable to find data for input tensor '" + name + "' for model '"
                    + call.request().modelName() + "' in request. (raw_input_contents has only " + raw.size()
                    + " entries)");
            }
            // The byte size against the shape is the core's check (RequestValidator), with Triton's message.
            memory = MemorySegment.ofBuffer(raw.get(rawIndex).asReadOnlyByteBuffer());
            next = rawIndex + 1;
        }
        else
        {
            if (!input.hasContents())
            {
                throw invalid("unable to find data for input tensor '" + name + "' for model '"
                    + call.request().modelName() + "' in request. (set 'contents' or raw_input_contents)");
            }
            final ByteBuf converted = call.ownInput(call.allocator().directBuffer(
                (int) Math.min(Math.max(elements * Math.max(1, dataType.byteSize()), 16), 1 << 20)));
            GrpcTensorContents.read(name, call.request().modelName(), dataType, input.getContents(), converted);
            memory = MemorySegment.ofBuffer(converted.nioBuffer(0, converted.writerIndex()));
        }
        call.request().addInput(name, dataType, shape, memory);
        return next;
    }

    private void decodeOutput(final InferCall call, final ModelInferRequest.InferRequestedOutputTensor output)
    {
        final String name = output.getName();
        final Map<String, InferParameter> parameters = output.getParametersMap();
        // server src/grpc/grpc_utils.cc ParseClassificationParams, infer_handler.h InferAllocatorPayload
        final InferParameter classification = parameters.get("classification");
        long classes = 0;
        if (classification != null)
        {
            if (classification.getParameterChoiceCase() != InferParameter.ParameterChoiceCase.INT64_PARAM)
            {
                throw invalid("invalid value type for 'classification' parameter, expected int64_param (output '"
                    + name + "' sets " + classification.getParameterChoiceCase() + ")");
            }
            classes = classification.getInt64Param();
            if (classes <= 0)
            {
                throw invalid("invalid value for 'classification' parameter, expected >= 0 (output '" + name
                    + "' sets " + classes + "; it must be at least 1)");
            }
        }
        ShmSlice target = null;
        final InferParameter region = parameters.get("shared_memory_region");
        if (region != null)
        {
            if (classification != null)
            {
                throw invalid("output can't set both 'shared_memory_region' and 'classification' (output '" + name
                    + "')");
            }
            target = acquire(parameters, region, name);
        }
        final RequestedOutput plan = call.requestOutput(name, true, target);
        if (classes > 0)
        {
            Classification.request(core, call, plan, classes);
        }
    }

    /**
     * Holds the shared memory a tensor references. Offsets and sizes arrive as int64_param (Triton's clients) or
     * uint64_param; Triton reads both into unsigned 64-bit values, so a negative int64 is a huge offset, refused by
     * the region's bounds check with Triton's message.
     */
    private ShmSlice acquire(final Map<String, InferParameter> parameters, final InferParameter region,
        final String tensor)
    {
        return sharedMemory.acquire(string(region, "shared_memory_region", tensor),
            unsigned64(parameters.get("shared_memory_offset"), "shared_memory_offset", tensor),
            unsigned64(parameters.get("shared_memory_byte_size"), "shared_memory_byte_size", tensor), tensor);
    }

    private static boolean isEmpty(final InferTensorContents contents)
    {
        return contents.getBoolContentsCount() == 0 && contents.getIntContentsCount() == 0
            && contents.getInt64ContentsCount() == 0 && contents.getUintContentsCount() == 0
            && contents.getUint64ContentsCount() == 0 && contents.getFp32ContentsCount() == 0
            && contents.getFp64ContentsCount() == 0 && contents.getBytesContentsCount() == 0;
    }

    private static String string(final InferParameter value, final String key, final String tensor)
    {
        if (value.getParameterChoiceCase() != InferParameter.ParameterChoiceCase.STRING_PARAM)
        {
            throw invalid("invalid value type for '" + key + "' parameter for tensor '" + tensor
                + "', expected string_param.");
        }
        return value.getStringParam();
    }

    /** @return the value's 64 bits, or 0 when absent (server src/grpc/grpc_utils.h ParseSharedMemoryParams). */
    private static long unsigned64(final InferParameter value, final String key, final String tensor)
    {
        if (value == null)
        {
            return 0;
        }
        return switch (value.getParameterChoiceCase())
        {
            case INT64_PARAM -> value.getInt64Param();
            case UINT64_PARAM -> value.getUint64Param();
            default -> throw invalid("invalid value type for '" + key + "' parameter for tensor '" + tensor
                + "', expected int64_param.");
        };
    }

    private static InferenceException invalid(final String message)
    {
        return new InferenceException(ErrorCode.INVALID_ARG, message);
    }
}
