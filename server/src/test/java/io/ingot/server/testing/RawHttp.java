package io.ingot.server.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** HTTP/1.1 written and read by hand on a socket, for what the JDK client never sends. */
public final class RawHttp
{
    /**
     * A response read off the socket.
     *
     * @param status  the status code
     * @param headers the headers, names in lower case
     * @param body    the body as UTF-8
     */
    public record Response(int status, Map<String, String> headers, String body)
    {
    }

    private RawHttp()
    {
    }

    /**
     * @param head the request line and headers, ending in an empty line
     * @param body the body
     * @return the bytes of both
     */
    public static byte[] request(final String head, final byte[] body)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(head.getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(body);
        return out.toByteArray();
    }

    /**
     * @param in a socket's input
     * @return one line, without its CR LF
     * @throws IOException when reading fails
     */
    public static String line(final InputStream in) throws IOException
    {
        final StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0 && c != '\n')
        {
            if (c != '\r')
            {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    /**
     * @param in a socket's input
     * @return the next response (with a {@code Content-Length} body)
     * @throws IOException when reading fails
     */
    public static Response read(final InputStream in) throws IOException
    {
        final String status = line(in);
        assertTrue(status.startsWith("HTTP/1.1 "), "status line: " + status);
        final Map<String, String> headers = new LinkedHashMap<>();
        String header;
        while (!(header = line(in)).isEmpty())
        {
            final int colon = header.indexOf(':');
            headers.put(header.substring(0, colon).trim().toLowerCase(Locale.ROOT), header.substring(colon + 1).trim());
        }
        final int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
        final byte[] body = in.readNBytes(length);
        return new Response(Integer.parseInt(status.substring(9, 12)), headers,
            new String(body, StandardCharsets.UTF_8));
    }
}
