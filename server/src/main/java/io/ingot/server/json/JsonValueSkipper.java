package io.ingot.server.json;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;

import java.util.Arrays;

/**
 * Skips one JSON value for a {@link JsonScanner}, whatever it is, checking its syntax with rapidjson's messages: the
 * parts of a request body Ingot does not read still have to be valid JSON, as Triton parses the whole body.
 *
 * <p>Nothing is recursive, so that a deeply nested body cannot overflow the stack: as Triton's parser
 * ({@code kParseIterativeFlag}) reads any depth. What it holds is one bit per open container (whether it is an object),
 * so a body of n bytes costs at most n/8 bytes here. Stateless: the state is the scanner's, which is not thread-safe.
 */
final class JsonValueSkipper
{
    private JsonValueSkipper()
    {
    }

    /**
     * Skips the next value.
     *
     * @param in       the scanner, standing before the value
     * @param maxDepth the deepest nesting of arrays and objects accepted
     * @throws InferenceException for malformed JSON, or nesting deeper than {@code maxDepth}
     */
    static void skip(final JsonScanner in, final int maxDepth)
    {
        // Bit d tells whether the container open at depth d is an object; grown as containers open.
        long[] isObject = new long[1];
        int depth = 0;
        while (true)
        {
            final int kind = in.peekValue();
            if (kind == JsonScanner.OBJECT || kind == JsonScanner.ARRAY)
            {
                in.seek(in.position() + 1);
                if (in.consume(kind == JsonScanner.OBJECT ? '}' : ']'))
                {
                    // An empty container is a complete value.
                }
                else
                {
                    if (depth == maxDepth)
                    {
                        throw new InferenceException(ErrorCode.INVALID_ARG, "JSON nesting depth exceeds maximum "
                            + "allowed limit (" + maxDepth + ")");
                    }
                    if (depth >> 6 == isObject.length)
                    {
                        isObject = Arrays.copyOf(isObject, isObject.length * 2);
                    }
                    if (kind == JsonScanner.OBJECT)
                    {
                        isObject[depth >> 6] |= 1L << depth;
                    }
                    else
                    {
                        isObject[depth >> 6] &= ~(1L << depth);
                    }
                    depth++;
                    if (kind == JsonScanner.OBJECT)
                    {
                        memberName(in);
                    }
                    continue;
                }
            }
            else if (kind == JsonScanner.STRING)
            {
                in.readString();
            }
            else if (kind == JsonScanner.NUMBER)
            {
                in.readNumber();
            }
            else if (kind == JsonScanner.BOOLEAN)
            {
                in.readBoolean();
            }
            else
            {
                in.readNull();
            }
            // A value ended: close the containers that end here, or go on to the next member or element.
            while (true)
            {
                if (depth == 0)
                {
                    return;
                }
                final boolean object = (isObject[(depth - 1) >> 6] & 1L << (depth - 1)) != 0;
                if (in.consume(','))
                {
                    if (object)
                    {
                        memberName(in);
                    }
                    break;
                }
                if (in.consume(object ? '}' : ']'))
                {
                    depth--;
                    continue;
                }
                throw in.error(object ? "Missing a comma or '}' after an object member."
                    : "Missing a comma or ']' after an array element.");
            }
        }
    }

    private static void memberName(final JsonScanner in)
    {
        if (in.atEnd() || in.buffer().getByte(in.position()) != '"')
        {
            throw in.error("Missing a name for object member.");
        }
        in.readString();
        in.expect(':', "Missing a colon after a name of object member.");
    }
}
