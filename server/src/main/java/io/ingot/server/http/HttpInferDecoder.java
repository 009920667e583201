package io.ingot.server.http;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import io.ingot.tensor.DataType;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInput;
import io.ingot.server.json.JsonBodies;
import io.ingot.server.json.JsonTensorReader;
import io.ingot.server.net.ClientText;
import io.ingot.server.protocol.Classification;
import io.ingot.server.protocol.InferCall;
import io.ingot.server.protocol.RequestParameters;
import io.ingot.server.protocol.RequestedOutput;
import io.ingot.server.protocol.TensorLayout;
import io.ingot.server.shm.ShmSlice;
import io.ingot.server.shm.SystemSharedMemoryRegistry;
import io.netty.buffer.ByteBuf;

import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Turns the body of {@code POST /v2/models/{m}/infer} into an {@link InferCall}: the JSON header, the binary tensor
 * extension (blobs after the header, in input order, for inputs with {@code binary_data_size}), shared-memory
 * references, requested outputs and request parameters, with Triton's rules and status codes.
 *
 * <p>Input tensors are not copied: binary inputs point into the request body, shared-memory inputs into the
 * region. Only JSON {@code data} is converted into a new buffer.
 */
public final class HttpInferDecoder
{
    /** Triton's request-log prefix for a request without an id (core src/infer_request.h {@code LogRequest}). */
    private static final String REQUEST_ID_UNKNOWN = "[request id: <id_unknown>] ";
    private static final Pattern INTEGER = Pattern.compile("-?[0-9]+");

    /** Header giving the byte length of the JSON part of a binary request or response. */
    public static final String HEADER_LENGTH = "Inference-Header-Content-Length";

    private final InferenceCore core;
    private final SystemSharedMemoryRegistry sharedMemory;
    private final HttpInputLimit inputLimit;

    /**
     * A decoder under Triton's default {@code --http-max-input-size} (64 MiB).
     *
     * @param core         the core, asked for metadata of raw binary requests
     * @param sharedMemory registered shared-memory regions
     */
    public HttpInferDecoder(final InferenceCore core, final SystemSharedMemoryRegistry sharedMemory)
    {
        this(core, sharedMemory, new HttpInputLimit(HttpInputLimit.DEFAULT_BYTES));
    }

    /**
     * @param core         the core, asked for metadata of raw binary requests
     * @param sharedMemory registered shared-memory regions
     * @param inputLimit   Triton's {@code --http-max-input-size} rule: the JSON part, JSON tensors, a raw input
     */
    public HttpInferDecoder(final InferenceCore core, final SystemSharedMemoryRegistry sharedMemory,
        final HttpInputLimit inputLimit)
    {
        this.core = core;
        this.sharedMemory = sharedMemory;
        this.inputLimit = inputLimit;
    }

    /**
     * Fills a call from a request body. On failure everything the call acquired stays owned by it: release it.
     *
     * @param call         the call to fill
     * @param headerLength the {@value #HEADER_LENGTH} header, or {@code null}
     * @param body         the (decompressed) body, one contiguous buffer that must outlive the call
     * @throws InferenceException with the status Triton uses, and a message naming the problem
     */
    public void decode(final InferCall call, final String headerLength, final ByteBuf body)
    {
        final int bodyLength = body.readableBytes();
        final int jsonLength = jsonLength(headerLength, bodyLength);
        if (jsonLength == 0)
        {
            inputLimit.checkRaw(bodyLength);
            decodeRaw(call, body);
            return;
        }
        inputLimit.checkJson(jsonLength);
        final JsonObject root = JsonBodies.object(JsonBodies.parseInferRequest(body, 0, jsonLength),
            "the inference request");
        final String id = JsonBodies.optionalString(root, "id", "the inference request");
        if (id != null)
        {
            call.request().id(id);
        }
        applyParameters(call, JsonBodies.optionalObject(root, "parameters", "the inference request"));
        final JsonArray inputs = JsonBodies.optionalArray(root, "inputs", "the inference request");
        if (inputs == null)
        {
            throw invalid("the inference request is missing the required array 'inputs'");
        }
        // headerLength == null: the whole body is JSON and no input may take binary bytes.
        final boolean binaryAllowed = headerLength != null;
        int cursor = jsonLength;
        for (int i = 0; i < inputs.size(); i++)
        {
            cursor = decodeInput(call, JsonBodies.object(inputs.get(i), "inputs[" + i + "]"), body, cursor,
                binaryAllowed);
        }
        if (cursor != bodyLength)
        {
            throw invalid("unexpected additional input data for model '" + call.request().modelName() + "': "
                + (bodyLength - cursor) + " bytes follow the last binary input (binary_data_size values add up to "
                + (cursor - jsonLength) + " bytes, the body has " + (bodyLength - jsonLength) + " after the JSON "
                + "header)");
        }
        final JsonArray outputs = JsonBodies.optionalArray(root, "outputs", "the inference request");
        if (outputs != null)
        {
            for (int i = 0; i < outputs.size(); i++)
            {
                decodeOutput(call, JsonBodies.object(outputs.get(i), "outputs[" + i + "]"));
            }
        }
    }

    private static int jsonLength(final String header, final int bodyLength)
    {
        if (header == null)
        {
            return bodyLength;
        }
        final long value;
        try
        {
            value = Long.parseLong(header.trim());
        }
        catch (final NumberFormatException notNumber)
        {
            throw invalid(HEADER_LENGTH + " must be a non-negative integer, got '" + ClientText.name(header) + "'");
        }
        if (value < 0 || value > bodyLength)
        {
            throw invalid(HEADER_LENGTH + " " + value + " is outside the request body of " + bodyLength + " bytes");
        }
        return (int) value;
    }

    /**
     * Applies request parameters: Triton's reserved ones reach the request, custom ones are checked.
     *
     * @param call       the call
     * @param parameters the {@code parameters} object, or {@code null}
     */
    void applyParameters(final InferCall call, final JsonObject parameters)
    {
        if (parameters == null)
        {
            return;
        }
        for (final Map.Entry<String, JsonElement> entry : parameters.entrySet())
        {
            final String key = entry.getKey();
            final JsonElement value = entry.getValue();
            final String context = "the request parameters";
            switch (key)
            {
                case RequestParameters.PRIORITY ->
                    RequestParameters.applyPriority(call.request(), JsonBodies.unsigned(value, key, context));
                case RequestParameters.TIMEOUT ->
                    RequestParameters.applyTimeout(call.request(), JsonBodies.unsigned(value, key, context));
                case RequestParameters.BINARY_DATA_OUTPUT ->
                    call.defaultBinary(JsonBodies.bool(value, key, context));
                case RequestParameters.SEQUENCE_ID -> applySequenceId(call, value);
                case RequestParameters.SEQUENCE_START, RequestParameters.SEQUENCE_END ->
                    RequestParameters.applySequenceFlag(call.request(), key, JsonBodies.bool(value, key, context));
                case RequestParameters.HEADERS ->
                {
                    // reserved for header forwarding; nothing to forward to
                }
                default ->
                {
                    if (RequestParameters.isTritonReserved(key))
                    {
                        throw RequestParameters.tritonReserved(key);
                    }
                    if (!JsonBodies.isScalar(value))
                    {
                        throw invalid("parameter '" + ClientText.name(key) + "' must be a string, integer, boolean "
                            + "or double, got " + JsonBodies.describe(value));
                    }
                    RequestParameters.applyCustom(call.request(), key, customValue(value.getAsJsonPrimitive()));
                }
            }
        }
    }

    /**
     * A custom parameter's value as Triton's http_server.cc types it (SetTritonParameterFromJsonParameter): a string,
     * an integer that fits int64, a boolean, else a double.
     */
    private static Object customValue(final JsonPrimitive value)
    {
        if (value.isString())
        {
            return value.getAsString();
        }
        if (value.isBoolean())
        {
            return value.getAsBoolean();
        }
        final String text = value.getAsString();
        if (INTEGER.matcher(text).matches())
        {
            try
            {
                return Long.parseLong(text);
            }
            catch (final NumberFormatException beyondInt64)
            {
                return value.getAsDouble();
            }
        }
        return value.getAsDouble();
    }

    /** Triton's http_server.cc: the ID is tried as an unsigned 64-bit integer, then as a string. */
    private static void applySequenceId(final InferCall call, final JsonElement value)
    {
        if (JsonBodies.isScalar(value) && value.getAsJsonPrimitive().isString())
        {
            RequestParameters.applySequenceId(call.request(), value.getAsString());
            return;
        }
        if (JsonBodies.isScalar(value) && value.getAsJsonPrimitive().isNumber())
        {
            try
            {
                final BigInteger id = value.getAsJsonPrimitive().getAsBigDecimal().toBigIntegerExact();
                if (id.signum() >= 0 && id.bitLength() <= Long.SIZE)
                {
                    RequestParameters.applySequenceId(call.request(), id.longValue());
                    return;
                }
            }
            catch (final ArithmeticException | NumberFormatException notWhole)
            {
                // refused below
            }
        }
        throw invalid("Unable to parse 'sequence_id': expected an unsigned 64-bit integer or a string, got "
            + JsonBodies.describe(value));
    }

    private int decodeInput(final InferCall call, final JsonObject input, final ByteBuf body, final int cursor,
        final boolean binaryAllowed)
    {
        final String name = JsonBodies.requiredString(input, "name", "an input");
        final String context = "input '" + ClientText.name(name) + "'";
        final String typeName = JsonBodies.requiredString(input, "datatype", context);
        final DataType dataType = DataType.fromWireName(typeName);
        if (dataType == null)
        {
            throw invalid("invalid datatype '" + ClientText.name(typeName) + "' of " + context + "; expected one of "
                + Arrays.toString(DataType.values()));
        }
        final long[] shape = shape(input.get("shape"), name);
        final long elements = TensorLayout.elementCount(name, shape);
        final JsonObject parameters = JsonBodies.optionalObject(input, "parameters", context);
        final JsonElement data = input.get("data");
        final JsonElement binarySize = parameters == null ? null : parameters.get("binary_data_size");
        final String region = parameters == null ? null
            : JsonBodies.optionalString(parameters, "shared_memory_region", context);
        final boolean hasData = data != null && !data.isJsonNull();
        final int sources = (hasData ? 1 : 0) + (binarySize != null ? 1 : 0) + (region != null ? 1 : 0);
        if (sources != 1)
        {
            // server src/http_server.cc ValidateInputContentType
            throw invalid("Input must set only one of the following fields: 'data', 'binary_data_size' in "
                + "'parameters', 'shared_memory_region' in 'parameters'. But"
                + (sources == 0 ? " no field is set" : " set" + (hasData ? " 'data'" : "")
                + (binarySize != null ? " 'binary_data_size'" : "") + (region != null ? " 'shared_memory_region'"
                : "")) + " (" + context + ")");
        }
        int next = cursor;
        final MemorySegment memory;
        if (binarySize != null)
        {
            final long size = JsonBodies.unsigned(binarySize, "binary_data_size", context);
            final int remaining = body.readableBytes() - cursor;
            if (size > 0 && !binaryAllowed)
            {
                throw invalid("must specify valid 'Infer-Header-Content-Length' in request header and "
                    + "'binary_data_size' when passing inputs in binary data format (" + context + " has "
                    + "binary_data_size " + size + " but the request has no " + HEADER_LENGTH + " header)");
            }
            if (size > remaining)
            {
                throw invalid("unexpected size for input '" + ClientText.name(name) + "', expecting "
                    + (size - remaining) + " additional bytes for model '" + call.request().modelName() + "' ("
                    + "binary_data_size " + size + ", " + remaining + " bytes remain in the request body)");
            }
            // The byte size against the shape is the core's check (RequestValidator), with Triton's message.
            memory = MemorySegment.ofBuffer(body.nioBuffer(body.readerIndex() + cursor, (int) size));
            next = cursor + (int) size;
        }
        else if (region != null)
        {
            final ShmSlice slice = call.ownInput(acquire(parameters, region, name, context));
            memory = slice.memory();
        }
        else
        {
            if (dataType != DataType.BYTES && dataType.byteSize() > 0)
            {
                inputLimit.checkJsonTensor(name, TensorLayout.fixedByteSize(name, dataType, elements));
            }
            final long guess = dataType == DataType.BYTES ? 256 : elements * Math.max(1, dataType.byteSize());
            final ByteBuf converted = call.ownInput(call.allocator().directBuffer(
                (int) Math.min(Math.max(guess, 16), 1 << 20)));
            JsonTensorReader.read(name, dataType, shape, elements, data, converted);
            // BYTES: Triton sizes the strings first (4 bytes of length each); the same count, after converting.
            inputLimit.checkJsonTensor(name, converted.writerIndex());
            memory = MemorySegment.ofBuffer(converted.nioBuffer(0, converted.writerIndex()));
        }
        call.request().addInput(name, dataType, shape, memory);
        return next;
    }

    private void decodeOutput(final InferCall call, final JsonObject output)
    {
        final String name = JsonBodies.requiredString(output, "name", "an output");
        final String context = "output '" + ClientText.name(name) + "'";
        final JsonObject parameters = JsonBodies.optionalObject(output, "parameters", context);
        boolean binary = false;
        ShmSlice target = null;
        long classes = 0;
        if (parameters != null)
        {
            final JsonElement binaryValue = parameters.get("binary_data");
            if (binaryValue != null)
            {
                binary = JsonBodies.bool(binaryValue, "binary_data", context);
            }
            final JsonElement classification = parameters.get("classification");
            final String region = JsonBodies.optionalString(parameters, "shared_memory_region", context);
            if (region != null)
            {
                // server src/http_server.cc ValidateOutputParameter
                if (classification != null)
                {
                    throw invalid("Output can't set both 'shared_memory_region' and 'classification' (" + context
                        + "): classification results are returned in the response, not in shared memory");
                }
                if (binary)
                {
                    throw invalid("Output can't set both 'shared_memory_region' and 'binary_data' (" + context
                        + "): a shared-memory output is written into the region, not into the response");
                }
                target = acquire(parameters, region, name, context);
            }
            if (classification != null)
            {
                classes = JsonBodies.unsigned64(classification, "classification", context);
            }
        }
        final RequestedOutput plan = call.requestOutput(name, binary, target);
        if (classes != 0)
        {
            Classification.request(core, call, plan, classes);
        }
    }

    private ShmSlice acquire(final JsonObject parameters, final String region, final String tensor,
        final String context)
    {
        final JsonElement byteSize = parameters.get("shared_memory_byte_size");
        final JsonElement offset = parameters.get("shared_memory_offset");
        // An absent byte size is 0, as in Triton's CheckSharedMemoryData.
        return sharedMemory.acquire(region,
            offset == null ? 0 : JsonBodies.unsigned64(offset, "shared_memory_offset", context),
            byteSize == null ? 0 : JsonBodies.unsigned64(byteSize, "shared_memory_byte_size", context), tensor);
    }

    /**
     * A raw binary request ({@value #HEADER_LENGTH}: 0): the whole body is the data of the model's only input, as
     * Triton's core normalizes it (core src/infer_request.cc {@code Normalize}, server src/http_server.cc
     * {@code EVBufferToRawInput}): batch 1 for a batching model, one variable dimension deduced from the body's size,
     * a {@code BYTES} input taken as one element (the body is its bytes, not length-prefixed), and every output
     * returned binary.
     */
    private void decodeRaw(final InferCall call, final ByteBuf body)
    {
        final String model = call.request().modelName();
        final ModelConfig config = core.modelConfig(model, call.request().modelVersion());
        if (config.getInputCount() != 1)
        {
            throw invalid(REQUEST_ID_UNKNOWN + "Raw request must only have 1 input (found 1) to be deduced but got "
                + config.getInputCount() + " inputs in '" + model + "' model configuration");
        }
        final ModelInput input = config.getInput(0);
        final DataType dataType = DataType.fromConfigNumber(input.getDataTypeValue());
        final boolean batching = config.getMaxBatchSize() != 0;
        final long[] shape = new long[input.getDimsCount() + (batching ? 1 : 0)];
        int variable = -1;
        long fixedElements = 1;
        int d = 0;
        if (batching)
        {
            shape[d++] = 1;
        }
        for (final long dim : input.getDimsList())
        {
            if (dim == -1)
            {
                if (variable != -1)
                {
                    throw invalid(REQUEST_ID_UNKNOWN + "The shape of the raw input '" + input.getName() + "' can not "
                        + "be deduced because there are more than one variable-sized dimension");
                }
                variable = d;
            }
            else
            {
                fixedElements *= dim;
            }
            shape[d++] = dim;
        }
        final int size = body.readableBytes();
        final MemorySegment memory;
        if (dataType == DataType.BYTES)
        {
            if (variable != -1 || fixedElements != 1)
            {
                throw invalid(REQUEST_ID_UNKNOWN + "For BYTE datatype raw input '" + input.getName() + "', the model "
                    + "must have input shape [1]");
            }
            // The body is the one element's bytes; the core's BYTES layout puts its 4-byte length first.
            final ByteBuf element = call.ownInput(call.allocator().directBuffer(size + Integer.BYTES));
            element.writeIntLE(size).writeBytes(body, body.readerIndex(), size);
            memory = MemorySegment.ofBuffer(element.nioBuffer(0, element.writerIndex()));
        }
        else
        {
            if (variable != -1)
            {
                // Integer division as in Triton: a body that is not a whole number of elements then fails the
                // core's byte-size check, which names both sizes.
                shape[variable] = fixedElements == 0 ? 0 : size / fixedElements / dataType.byteSize();
            }
            memory = MemorySegment.ofBuffer(body.nioBuffer(body.readerIndex(), size));
        }
        call.request().addInput(input.getName(), dataType, shape, memory);
        call.defaultBinary(true);
    }

    private static long[] shape(final JsonElement value, final String input)
    {
        if (value == null || !value.isJsonArray())
        {
            throw invalid("input '" + input + "' is missing the required array 'shape'");
        }
        final JsonArray dims = value.getAsJsonArray();
        final long[] shape = new long[dims.size()];
        for (int i = 0; i < shape.length; i++)
        {
            final JsonElement dim = dims.get(i);
            try
            {
                shape[i] = JsonBodies.unsigned(dim, "shape", "input '" + input + "'");
            }
            catch (final InferenceException notUnsigned)
            {
                throw invalid("Unable to parse 'shape' of input '" + ClientText.name(input) + "': dimension " + i
                    + " is " + JsonBodies.describe(dim) + ", expected a non-negative integer");
            }
        }
        return shape;
    }

    private static InferenceException invalid(final String message)
    {
        return new InferenceException(ErrorCode.INVALID_ARG, message);
    }
}
