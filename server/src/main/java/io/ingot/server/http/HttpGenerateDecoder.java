package io.ingot.server.http;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.api.ModelMetadata;
import io.ingot.api.TensorMetadata;
import io.ingot.server.json.JsonBodies;
import io.ingot.server.json.JsonTensorReader;
import io.ingot.server.net.ClientText;
import io.ingot.server.protocol.InferCall;
import io.ingot.tensor.DataType;
import io.netty.buffer.ByteBuf;

import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.Map;

/**
 * Turns the body of Triton's generate extension ({@code POST …/generate} and {@code …/generate_stream}) into an
 * inference request, as Triton's HTTP frontend does ({@code server src/http_server.cc} {@code HandleGenerate},
 * {@code ConvertGenerateRequest}, {@code ExactMappingInput}): every top-level key that names an input of the model
 * becomes that input, every other key a request parameter; {@code parameters} is a nested object whose keys are
 * mapped the same way; {@code id} is the request's id.
 *
 * <p>An input's value is a scalar or a flat array; its datatype comes from the model's metadata and its shape is
 * that metadata's shape filled in with the element count: each fixed dimension must divide it, the innermost
 * variable dimension takes the rest and any other variable dimension (the batch dimension) is 1, else "The schema
 * can not convert input '…' to tensor with proper shape". An empty array is an input without elements or
 * dimensions. A value of the wrong JSON type is refused with TritonJson's text ("attempt to access JSON
 * non-signed-integer as signed-integer") followed by Ingot's, naming the input and the element; Triton answers it
 * with status 500 (its TritonJson errors are INTERNAL), Ingot with 400, as for the other client errors.
 *
 * <p>Stateless; one per frontend.
 */
final class HttpGenerateDecoder
{
    /** The nested object of parameters (Triton's provisional generate mapping schema). */
    static final String PARAMETERS = "parameters";

    private final HttpInferDecoder parameters;
    private final long maxInputBytes;

    /**
     * @param parameters    applies request parameters, as for {@code /infer}
     * @param maxInputBytes the most bytes the inputs may take together ({@code --http-max-input-size})
     */
    HttpGenerateDecoder(final HttpInferDecoder parameters, final long maxInputBytes)
    {
        this.parameters = parameters;
        this.maxInputBytes = maxInputBytes;
    }

    /**
     * Fills a call from a generate request body. On failure what the call acquired stays owned by it: release it.
     *
     * @param call     the call to fill
     * @param metadata the model's metadata (its inputs' names, datatypes and shapes)
     * @param body     the body
     * @throws InferenceException INVALID_ARG naming the problem
     */
    void decode(final InferCall call, final ModelMetadata metadata, final ByteBuf body)
    {
        final JsonElement root = JsonBodies.parse(body, 0, body.readableBytes());
        if (!root.isJsonObject())
        {
            throw invalid("attempt to access JSON non-object as object (a generate request is a JSON object, got "
                + JsonBodies.describe(root) + ")");
        }
        final JsonObject request = root.getAsJsonObject();
        final JsonElement id = request.get("id");
        if (id != null)
        {
            if (!id.isJsonPrimitive() || !id.getAsJsonPrimitive().isString())
            {
                throw invalid("Unable to parse 'id': attempt to access JSON non-string as string (got "
                    + JsonBodies.describe(id) + ")");
            }
            call.request().id(id.getAsString());
        }
        final Map<String, TensorMetadata> inputs = new HashMap<>();
        for (final TensorMetadata input : metadata.inputs())
        {
            inputs.put(input.name(), input);
        }
        final long[] consumed = {0};
        for (final Map.Entry<String, JsonElement> member : request.entrySet())
        {
            final String key = member.getKey();
            if (key.equals(PARAMETERS))
            {
                nested(call, inputs, member.getValue(), consumed);
            }
            else if (!key.equals("id"))
            {
                map(call, inputs, key, member.getValue(), consumed);
            }
        }
    }

    private void nested(final InferCall call, final Map<String, TensorMetadata> inputs, final JsonElement value,
        final long[] consumed)
    {
        if (inputs.containsKey(PARAMETERS))
        {
            throw invalid("Keyword '" + PARAMETERS + "' for nested schema also given as input tensor name");
        }
        if (!value.isJsonObject())
        {
            throw invalid("Expected JSON object for keyword: '" + PARAMETERS + "': attempt to access JSON non-object "
                + "as object (got " + JsonBodies.describe(value) + ")");
        }
        for (final Map.Entry<String, JsonElement> member : value.getAsJsonObject().entrySet())
        {
            try
            {
                map(call, inputs, member.getKey(), member.getValue(), consumed);
            }
            catch (final InferenceException failure)
            {
                throw new InferenceException(failure.code(), "Converting keyword: '" + PARAMETERS + "': "
                    + failure.getMessage());
            }
        }
    }

    /** Triton's ExactMappingInput: an input of the model, or else a request parameter. */
    private void map(final InferCall call, final Map<String, TensorMetadata> inputs, final String key,
        final JsonElement value, final long[] consumed)
    {
        final TensorMetadata input = inputs.get(key);
        if (input == null)
        {
            final JsonObject parameter = new JsonObject();
            parameter.add(key, value);
            parameters.applyParameters(call, parameter);
            return;
        }
        final String name = input.name();
        final DataType dataType = input.dataType();
        if (value.isJsonNull() || value.isJsonObject())
        {
            throw invalid(kindError(dataType) + " (input '" + ClientText.name(name) + "' of the generate request "
                + "is " + JsonBodies.describe(value) + ", expected a value or a flat array of values of datatype "
                + dataType.wireName() + ")");
        }
        final int elements = value.isJsonArray() ? value.getAsJsonArray().size() : 1;
        if (elements == 0)
        {
            call.request().addInput(name, dataType, new long[0], MemorySegment.NULL);
            return;
        }
        final long[] shape = shapeFor(name, input, elements);
        final ByteBuf converted = call.ownInput(call.allocator().directBuffer(Math.min(Math.max(16,
            elements * Math.max(1, dataType.byteSize())), 1 << 20)));
        try
        {
            JsonTensorReader.read(name, dataType, shape, elements, value, converted);
        }
        catch (final InferenceException refused)
        {
            throw wrongKind(dataType, value) ? invalid(kindError(dataType) + " (" + refused.getMessage() + ")")
                : refused;
        }
        final long size = converted.writerIndex();
        if (size + consumed[0] > maxInputBytes)
        {
            throw invalid("request size of " + consumed[0] + " bytes with input '" + ClientText.name(name)
                + "' of size " + size + " bytes exceeds the maximum allowed input size of " + maxInputBytes
                + ". Use --http-max-input-size to increase the limit.");
        }
        consumed[0] += size;
        call.request().addInput(name, dataType, shape, MemorySegment.ofBuffer(converted.nioBuffer(0, (int) size)));
    }

    /**
     * Triton's two passes: the fixed dimensions divide the element count, the innermost variable dimension takes
     * what is left, the other variable dimensions are 1.
     */
    private static long[] shapeFor(final String name, final TensorMetadata input, final long elements)
    {
        final long[] shape = new long[input.shape().size()];
        long left = elements;
        for (int d = shape.length - 1; d >= 0; d--)
        {
            shape[d] = input.shape().get(d);
            if (shape[d] != -1)
            {
                if (shape[d] == 0 || left % shape[d] != 0)
                {
                    throw unshapeable(name, input, elements);
                }
                left /= shape[d];
            }
        }
        for (int d = shape.length - 1; d >= 0; d--)
        {
            if (shape[d] == -1)
            {
                shape[d] = left;
                left = 1;
            }
        }
        if (left != 1)
        {
            throw unshapeable(name, input, elements);
        }
        return shape;
    }

    private static InferenceException unshapeable(final String name, final TensorMetadata input,
        final long elements)
    {
        return invalid("The schema can not convert input '" + ClientText.name(name) + "' to tensor with proper "
            + "shape (" + elements + " elements for the model's shape " + input.shape() + ")");
    }

    /** @return whether an element of the value has a JSON type the datatype cannot be read from */
    private static boolean wrongKind(final DataType dataType, final JsonElement value)
    {
        if (!value.isJsonArray())
        {
            return !fits(dataType, value);
        }
        final JsonArray array = value.getAsJsonArray();
        for (int i = 0; i < array.size(); i++)
        {
            if (!fits(dataType, array.get(i)))
            {
                return true;
            }
        }
        return false;
    }

    private static boolean fits(final DataType dataType, final JsonElement element)
    {
        if (!element.isJsonPrimitive())
        {
            return false;
        }
        final JsonPrimitive primitive = element.getAsJsonPrimitive();
        return switch (dataType)
        {
            case BOOL -> primitive.isBoolean();
            case BYTES -> primitive.isString();
            case INT8, INT16, INT32, INT64 -> primitive.isNumber() && integral(primitive.getAsString(), true);
            case UINT8, UINT16, UINT32, UINT64 -> primitive.isNumber() && integral(primitive.getAsString(), false);
            default -> primitive.isNumber();
        };
    }

    /** @return whether rapidjson reads the number as an int64 (signed) or a uint64 (not signed) */
    private static boolean integral(final String number, final boolean signed)
    {
        final boolean negative = number.startsWith("-");
        if (negative && !signed || number.length() == (negative ? 1 : 0))
        {
            return false;
        }
        for (int i = negative ? 1 : 0; i < number.length(); i++)
        {
            if (number.charAt(i) < '0' || number.charAt(i) > '9')
            {
                return false;
            }
        }
        final BigInteger value = new BigInteger(number);
        return signed ? value.bitLength() < Long.SIZE : value.bitLength() <= Long.SIZE;
    }

    /** @return TritonJson's refusal of a value read as the datatype's C++ type */
    private static String kindError(final DataType dataType)
    {
        return switch (dataType)
        {
            case BOOL -> "attempt to access JSON non-boolean as boolean";
            case BYTES -> "attempt to access JSON non-string as string";
            case UINT8, UINT16, UINT32, UINT64 -> "attempt to access JSON non-unsigned-integer as unsigned-integer";
            case INT8, INT16, INT32, INT64 -> "attempt to access JSON non-signed-integer as signed-integer";
            default -> "attempt to access JSON non-number as double";
        };
    }

    private static InferenceException invalid(final String message)
    {
        return new InferenceException(ErrorCode.INVALID_ARG, message);
    }
}
