package io.ingot.server.json;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;

import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Strict parsing of JSON request bodies and typed access to their fields, with errors that name the field and say
 * what was expected (INVALID_ARG, HTTP 400).
 */
public final class JsonBodies
{
    private JsonBodies()
    {
    }

    /**
     * Parses {@code length} bytes of {@code body} from its reader index as one strict JSON value.
     *
     * @param body   the bytes (not consumed)
     * @param offset offset from the reader index
     * @param length number of bytes
     * @return the value
     * @throws InferenceException INVALID_ARG for malformed JSON or trailing data
     */
    public static JsonElement parse(final ByteBuf body, final int offset, final int length)
    {
        if (length == 0)
        {
            throw invalid("failed to parse the request JSON: the body is empty");
        }
        final ByteBuf slice = body.slice(body.readerIndex() + offset, length);
        try (JsonReader reader = new JsonReader(new InputStreamReader(new ByteBufInputStream(slice),
            StandardCharsets.UTF_8)))
        {
            reader.setStrictness(Strictness.STRICT);
            final JsonElement value = JsonParser.parseReader(reader);
            if (reader.peek() != JsonToken.END_DOCUMENT)
            {
                throw invalid("failed to parse the request JSON: unexpected data after the JSON value");
            }
            return value;
        }
        catch (final JsonParseException | IOException | IllegalStateException malformed)
        {
            throw invalid("failed to parse the request JSON: " + describe(malformed));
        }
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
            throw invalid("Unable to parse '" + key + "' of " + context + ": expected a string, got " + value);
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
            + value);
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
        throw invalid("Unable to parse '" + key + "' of " + context + ": expected true or false, got " + value);
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

    private static String describe(final Exception malformed)
    {
        Throwable cause = malformed;
        while (cause.getCause() != null && cause.getCause() != cause)
        {
            cause = cause.getCause();
        }
        String message = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        // Gson's advice to switch to lenient parsing is not for our clients.
        message = message.replace("Use JsonReader.setStrictness(Strictness.LENIENT) to accept malformed JSON ", "")
            .replace("Use JsonReader.setStrictness(Strictness.LENIENT) to accept malformed JSON", "malformed JSON");
        final int advice = message.indexOf("\nSee https://");
        if (advice >= 0)
        {
            message = message.substring(0, advice);
        }
        if (message.startsWith("at line"))
        {
            message = "malformed JSON " + message;
        }
        return message;
    }

    private static InferenceException invalid(final String message)
    {
        return new InferenceException(ErrorCode.INVALID_ARG, message);
    }
}
