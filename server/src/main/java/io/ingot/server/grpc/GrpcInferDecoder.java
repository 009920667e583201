package io.ingot.server.grpc;

import com.google.protobuf.ByteString;
import io.ingot.tensor.DataType;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.server.protocol.InferCall;
import io.ingot.server.protocol.RequestParameters;
import io.ingot.server.protocol.TensorLayout;
import io.ingot.server.proto.InferParameter;
import io.ingot.server.proto.InferTensorContents;
import io.ingot.server.proto.ModelInferRequest;
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

    private final SystemSharedMemoryRegistry sharedMemory;

    /**
     * @param sharedMemory registered regions
     */
    public GrpcInferDecoder(final SystemSharedMemoryRegistry sharedMemory)
    {
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
                    // Ingot's models answer each request with exactly one, final response.
                }
                default ->
                {
                    if (RequestParameters.isTritonReserved(key))
                    {
                        throw RequestParameters.tritonReserved(key);
                    }
                    if (value.getParameterChoiceCase() == InferParameter.ParameterChoiceCase.UINT64_PARAM)
                    {
                        throw invalid("parameter '" + key + "' uses uint64_param, which only reserved parameters "
                            + "may use; send int64_param instead");
                    }
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
                throw invalid("input '" + name + "' sets both 'contents' and 'shared_memory_region'");
            }
            final ShmSlice slice = call.ownInput(sharedMemory.acquire(string(region, "shared_memory_region", name),
                int64(parameters.get("shared_memory_offset"), "shared_memory_offset", name, 0),
                int64(parameters.get("shared_memory_byte_size"), "shared_memory_byte_size", name, -1), name));
            memory = slice.memory();
            TensorLayout.checkData(name, dataType, elements, memory);
        }
        else if (!raw.isEmpty())
        {
            if (hasContents)
            {
                throw invalid("contents field must not be specified when using raw_input_contents for '" + name
                    + "'");
            }
            if (rawIndex >= raw.size())
            {
                throw invalid("unable to find data for input tensor '" + name + "': raw_input_contents has only "
                    + raw.size() + " entries");
            }
            memory = MemorySegment.ofBuffer(raw.get(rawIndex).asReadOnlyByteBuffer());
            next = rawIndex + 1;
            TensorLayout.checkData(name, dataType, elements, memory);
        }
        else
        {
            if (!input.hasContents())
            {
                throw invalid("unable to find data for input tensor '" + name + "': set 'contents' or "
                    + "raw_input_contents");
            }
            final ByteBuf converted = call.ownInput(call.allocator().directBuffer(
                (int) Math.min(Math.max(elements * Math.max(1, dataType.byteSize()), 16), 1 << 20)));
            GrpcTensorContents.read(name, dataType, elements, input.getContents(), converted);
            memory = MemorySegment.ofBuffer(converted.nioBuffer(0, converted.writerIndex()));
        }
        call.request().addInput(name, dataType, shape, memory);
        return next;
    }

    private void decodeOutput(final InferCall call, final ModelInferRequest.InferRequestedOutputTensor output)
    {
        final String name = output.getName();
        final Map<String, InferParameter> parameters = output.getParametersMap();
        final InferParameter classification = parameters.get("classification");
        if (classification != null && int64(classification, "classification", name, 0) > 0)
        {
            throw new InferenceException(ErrorCode.UNSUPPORTED, "the classification extension is not supported: "
                + "request output '" + name + "' without 'classification'");
        }
        ShmSlice target = null;
        final InferParameter region = parameters.get("shared_memory_region");
        if (region != null)
        {
            target = sharedMemory.acquire(string(region, "shared_memory_region", name),
                int64(parameters.get("shared_memory_offset"), "shared_memory_offset", name, 0),
                int64(parameters.get("shared_memory_byte_size"), "shared_memory_byte_size", name, -1), name);
        }
        call.requestOutput(name, true, target);
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
            throw invalid("Unable to parse '" + key + "' of tensor '" + tensor + "': expected string_param");
        }
        return value.getStringParam();
    }

    /** @return the value, or {@code absent} when missing; {@code -1} as {@code absent} makes it required. */
    private static long int64(final InferParameter value, final String key, final String tensor, final long absent)
    {
        if (value == null)
        {
            if (absent < 0)
            {
                throw invalid("tensor '" + tensor + "' sets 'shared_memory_region' but not the required '" + key
                    + "'");
            }
            return absent;
        }
        final long parsed = switch (value.getParameterChoiceCase())
        {
            case INT64_PARAM -> value.getInt64Param();
            case UINT64_PARAM -> value.getUint64Param();
            default -> throw invalid("Unable to parse '" + key + "' of tensor '" + tensor
                + "': expected int64_param, got " + value.getParameterChoiceCase());
        };
        if (parsed < 0)
        {
            throw invalid("'" + key + "' of tensor '" + tensor + "' must be non-negative, got " + parsed);
        }
        return parsed;
    }

    private static InferenceException invalid(final String message)
    {
        return new InferenceException(ErrorCode.INVALID_ARG, message);
    }
}
