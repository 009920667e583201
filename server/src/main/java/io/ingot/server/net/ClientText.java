package io.ingot.server.net;

/**
 * Bounds what a client sent before it is echoed in an error message or a log line, so that a refusal costs a bounded
 * amount of memory, bandwidth and log whatever the client sent: a name is cut to {@value #MAX_NAME_CHARS} characters
 * and a whole message to {@value #MAX_MESSAGE_CHARS}, each cut marked with the original length. (A 20,000-character
 * model name echoed in a gRPC status would exceed the client's 8 KiB header limit and turn the error into
 * RESOURCE_EXHAUSTED on the client.)
 */
public final class ClientText
{
    /** Longest name (model, tensor, region, key, parameter) echoed whole. */
    public static final int MAX_NAME_CHARS = 256;
    /** Longest error message sent whole. */
    public static final int MAX_MESSAGE_CHARS = 2048;

    private ClientText()
    {
    }

    /**
     * @param name a name a client sent, or {@code null}
     * @return it, or its first {@value #MAX_NAME_CHARS} characters and how long it was
     */
    public static String name(final String name)
    {
        return cut(name, MAX_NAME_CHARS);
    }

    /**
     * @param message an error message that may contain client text, or {@code null}
     * @return it, or its first {@value #MAX_MESSAGE_CHARS} characters and how long it was
     */
    public static String message(final String message)
    {
        return cut(message, MAX_MESSAGE_CHARS);
    }

    private static String cut(final String text, final int limit)
    {
        if (text == null || text.length() <= limit)
        {
            return text;
        }
        int end = limit;
        if (Character.isHighSurrogate(text.charAt(end - 1)))
        {
            end--;
        }
        return text.substring(0, end) + "...(" + text.length() + " characters)";
    }
}
