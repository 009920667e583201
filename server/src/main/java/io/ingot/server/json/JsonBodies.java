package io.ingot.server.json;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.server.net.ClientText;
import io.netty.buffer.ByteBuf;

/**
 * Parsing of JSON request bodies as Triton parses them ({@link JsonScanner}) and typed access to their fields, with
 * errors that name the field and say what was expected (INVALID_ARG, HTTP 400). Echoed values are cut to a bounded
 * length.
 */
public final class JsonBodies
{
    private JsonBodies()
    {
    }

    /**
     * Deepest nesting of arrays in a tensor's JSON {@code data} (Triton's HTTP_MAX_JSON_NESTING_DEPTH), and of the
     * tree built for the rest of a body.
     */
    public static final int MAX_NESTING = 100;

    /**
     * Parses {@code length} bytes of {@code body} from its reader index as one JSON value, as Triton parses request
     * bodies ({@link JsonScanner}: strict, plus {@code NaN}, {@code Inf}, {@code Infinity}).
     *
     * @param body   the bytes (not consumed)
     * @param offset offset from the reader index
     * @param length number of bytes
     * @return the value
     * @throws InferenceException INVALID_ARG for malformed JSON or trailing data, with Triton's message
     */
    public static JsonElement parse(final ByteBuf body, final int offset, final int length)
    {
        return parse(body, offset, length, false);
    }

    /**
     * Parses an inference request's JSON as {@link #parse}, except that the {@code data} of each element of
     * {@code inputs} is only checked and located, not parsed: it stays a {@link JsonSpan} for
     * {@link JsonTensorReader}.
     *
     * @param body   the bytes (not consumed; the spans point into them)
     * @param offset offset from the reader index
     * @param length number of bytes
     * @return the value
     * @throws InferenceException INVALID_ARG for malformed JSON or trailing data
     */
    public static JsonElement parseInferRequest(final ByteBuf body, final int offset, final int length)
    {
        return parse(body, offset, length, true);
    }

    private static JsonElement parse(final ByteBuf body, final int offset, final int length,
        final boolean deferData)
    {
        final int start = body.readerIndex() + offset;
        final JsonScanner scanner = new JsonScanner(body, start, start + length);
        final JsonElement value = new TreeBuilder(scanner, body, deferData).value(0, false);
        if (!scanner.atEnd())
        {
            throw scanner.error("The document root must not be followed by other values.");
        }
        return value;
    }

    /**
     * Builds Gson's tree from the scanner, recursively within {@link #MAX_NESTING}. Triton parses a body of any depth
     * ({@code kParseIterativeFlag}) and bounds only a tensor's {@code data}; so does this: a container nested deeper
     * than {@link #MAX_NESTING} is checked for syntax without recursion and kept as an empty container of its kind.
     * No field a request may hold takes a container that deep, and its kind still answers the field's type check
     * (Triton's {@code Invalid value for 'ready': expected a boolean} for a {@code ready} nested 250,000 deep), while
     * the tree, and the stack that builds it, stay bounded.
     */
    private record TreeBuilder(JsonScanner scanner, ByteBuf body, boolean deferData)
    {
        /**
         * @param isInputs whether this value is the root object's {@code inputs}
         */
        JsonElement value(final int depth, final boolean isInputs)
        {
            final int kind = scanner.peekValue();
            if ((kind == JsonScanner.OBJECT || kind == JsonScanner.ARRAY) && depth >= MAX_NESTING)
            {
                scanner.skipValue();
                return kind == JsonScanner.OBJECT ? new JsonObject() : new JsonArray();
            }
            return switch (kind)
            {
                case JsonScanner.OBJECT -> object(depth + 1, false);
                case JsonScanner.ARRAY -> array(depth + 1, isInputs);
                case JsonScanner.STRING -> new JsonPrimitive(scanner.readString());
                case JsonScanner.NUMBER ->
                {
                    scanner.readNumber();
                    yield scanner.numberIsNonFinite() ? new JsonPrimitive(scanner.numberAsDouble())
                        : new JsonPrimitive(new JsonNumber(scanner.numberText()));
                }
                case JsonScanner.BOOLEAN -> new JsonPrimitive(scanner.readBoolean());
                default ->
                {
                    scanner.readNull();
                    yield JsonNull.INSTANCE;
                }
            };
        }

        /**
         * @param isInput whether this object is an element of the request's {@code inputs}: its {@code data} is
         *                located, not parsed
         */
        private JsonObject object(final int depth, final boolean isInput)
        {
            scanner.expect('{', "Invalid value.");
            final JsonObject object = new JsonObject();
            if (scanner.consume('}'))
            {
                return object;
            }
            do
            {
                if (scanner.peekValue() != JsonScanner.STRING)
                {
                    throw scanner.error("Missing a name for object member.");
                }
                final String name = scanner.readString();
                scanner.expect(':', "Missing a colon after a name of object member.");
                final JsonElement member;
                if (isInput && name.equals("data") && scanner.peekValue() != JsonScanner.NULL)
                {
                    final int from = scanner.position();
                    scanner.skipValue(MAX_NESTING);
                    member = new JsonPrimitive(new JsonSpan(body, from, scanner.position()));
                }
                else
                {
                    member = value(depth, deferData && depth == 1 && name.equals("inputs"));
                }
                object.add(name, member);
            }
            while (scanner.consume(','));
            scanner.expect('}', "Missing a comma or '}' after an object member.");
            return object;
        }

        /**
         * @param ofInputs whether this array is the request's {@code inputs}
         */
        private JsonArray array(final int depth, final boolean ofInputs)
        {
            scanner.expect('[', "Invalid value.");
            final JsonArray array = new JsonArray();
            if (scanner.consume(']'))
            {
                return array;
            }
            do
            {
                array.add(ofInputs && scanner.peekValue() == JsonScanner.OBJECT ? object(depth + 1, true)
                    : value(depth, false));
            }
            while (scanner.consume(','));
            scanner.expect(']', "Missing a comma or ']' after an array element.");
            return array;
        }
    }

    /**
     * @param value a JSON value a client sent, or {@code null}
     * @return it in a few words for a message: a scalar as written (cut to a bounded length), a container by kind
     *         and size, so that a refusal never renders a whole array
     */
    public static String describe(final JsonElement value)
    {
        if (value == null)
        {
            return "nothing";
        }
        if (value.isJsonArray())
        {
            return "an array of " + value.getAsJsonArray().size() + " elements";
        }
        if (value.isJsonObject())
        {
            return "an object of " + value.getAsJsonObject().size() + " members";
        }
        if (value.isJsonPrimitive() && value.getAsJsonPrimitive().isString())
        {
            return "the string \"" + ClientText.name(value.getAsString()) + "\"";
        }
        return ClientText.name(value.toString());
    }

    /**
     * @param value   a JSON value
     * @param context what it is, for the message ("request", "inputs[0]")
     * @return it as an object
     */
    public static JsonObject object(final JsonElement value, final String context)
    {
        if (value == null || !value.isJsonObject())
        {
            throw invalid(context + " must be a JSON object");
        }
        return value.getAsJsonObject();
    }

    /**
     * @param parent  an object
     * @param key     a key
     * @param context what the object is, for the message
     * @return the object at {@code key}, or {@code null} when absent or null
     */
    public static JsonObject optionalObject(final JsonObject parent, final String key, final String context)
    {
        final JsonElement value = parent.get(key);
        if (value == null || value.isJsonNull())
        {
            return null;
        }
        if (!value.isJsonObject())
        {
            throw invalid("'" + key + "' of " + context + " must be a JSON object");
        }
        return value.getAsJsonObject();
    }

    /**
     * @param parent  an object
     * @param key     a key
     * @param context what the object is, for the message
     * @return the array at {@code key}, or {@code null} when absent
     */
    public static JsonArray optionalArray(final JsonObject parent, final String key, final String context)
    {
        final JsonElement value = parent.get(key);
        if (value == null || value.isJsonNull())
        {
            return null;
        }
        if (!value.isJsonArray())
        {
            throw invalid("'" + key + "' of " + context + " must be a JSON array");
        }
        return value.getAsJsonArray();
    }

    /**
     * @param parent  an object
     * @param key     a key
     * @param context what the object is, for the message
     * @return the string at {@code key}
     * @throws InferenceException when absent or not a string
     */
    public static String requiredString(final JsonObject parent, final String key, final String context)
    {
        final String value = optionalString(parent, key, context);
        if (value == null)
        {
            throw invalid(context + " is missing the required string '" + key + "'");
        }
        return value;
    }

    /**
     * @param parent  an object
     * @param key     a key
     * @param context what the object is, for the message
     * @return the string at {@code key}, or {@code null} when absent
     */
    public static String optionalString(final JsonObject parent, final String key, final String context)
    {
        final JsonElement value = parent.get(key);
        if (value == null || value.isJsonNull())
        {
            return null;
        }
        if (!value.isJsonPrimitive() || !value.getAsJsonPrimitive().isString())
        {
            throw invalid("Unable to parse '" + key + "' of " + context + ": expected a string, got "
                + describe(value));
        }
        return value.getAsString();
    }

    /**
     * @param value   a JSON value
     * @param key     its key, for the message
     * @param context where it is, for the message
     * @return it as an unsigned integer that fits a signed long
     */
    public static long unsigned(final JsonElement value, final String key, final String context)
    {
        if (value != null && value.isJsonPrimitive() && value.getAsJsonPrimitive().isNumber())
        {
            final String text = value.getAsString();
            try
            {
                final long parsed = Long.parseLong(text);
                if (parsed >= 0)
                {
                    return parsed;
                }
            }
            catch (final NumberFormatException notInteger)
            {
                // reported below
            }
        }
        throw invalid("Unable to parse '" + key + "' of " + context + ": expected an unsigned integer, got "
            + describe(value));
    }

    /**
     * Reads a JSON unsigned 64-bit integer, as rapidjson's {@code GetUint64} does (Triton's {@code AsUInt}): any
     * integer from 0 to 2^64-1.
     *
     * @param value   a JSON value
     * @param key     its key, for the message
     * @param context where it is, for the message
     * @return its 64 bits (read with {@link Long#compareUnsigned} and {@link Long#toUnsignedString})
     */
    public static long unsigned64(final JsonElement value, final String key, final String context)
    {
        if (value != null && value.isJsonPrimitive() && value.getAsJsonPrimitive().isNumber())
        {
            final String text = value.getAsString();
            if (!text.startsWith("-") && !text.startsWith("+"))
            {
                try
                {
                    return Long.parseUnsignedLong(text);
                }
                catch (final NumberFormatException notInteger)
                {
                    // reported below
                }
            }
        }
        throw invalid("Unable to parse '" + key + "' of " + context + ": expected an unsigned integer (0 to "
            + "18446744073709551615), got " + describe(value));
    }

    /**
     * @param value   a JSON value
     * @param key     its key, for the message
     * @param context where it is, for the message
     * @return it as a boolean
     */
    public static boolean bool(final JsonElement value, final String key, final String context)
    {
        if (value != null && value.isJsonPrimitive() && value.getAsJsonPrimitive().isBoolean())
        {
            return value.getAsBoolean();
        }
        throw invalid("Unable to parse '" + key + "' of " + context + ": expected true or false, got "
            + describe(value));
    }

    /**
     * @param value a JSON value
     * @return true for strings, numbers and booleans
     */
    public static boolean isScalar(final JsonElement value)
    {
        return value != null && value.isJsonPrimitive();
    }

    /**
     * @param value a primitive
     * @return whether it is a number equal to zero
     */
    public static boolean isZero(final JsonPrimitive value)
    {
        return value.isNumber() && value.getAsDouble() == 0;
    }

    private static InferenceException invalid(final String message)
    {
        return new InferenceException(ErrorCode.INVALID_ARG, message);
    }
}
