package io.ingot.server.http;

import com.google.gson.JsonParser;
import io.ingot.server.testing.InferBody;
import io.ingot.server.testing.RawHttp;
import io.ingot.server.testing.ServingFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The HTTP listener's bounds (issue 14, defect 3): a declared {@code Content-Length} reserves nothing, bodies share
 * a memory budget (503 beyond it), connections that do not finish a request are cut off (408) or closed, and the
 * number of connections is capped. Before: 328 connections sending only headers with {@code Content-Length:
 * 67108864} made every JSON and every large binary request fail for as long as they stayed open.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HttpResourceLimitsTest
{
    private static final int MAX_CONNECTIONS = 400;
    private static final long BODY_MEMORY = 3L << 20;

    private final ServingFixture server = new ServingFixture(options -> options.withHttpLimits(HttpLimits.defaults()
        .withMaxConnections(MAX_CONNECTIONS).withTimeouts(1500, 600, 600).withMinBodyBytesPerSecond(1024)
        .withBodyMemoryBytes(BODY_MEMORY)));

    @AfterAll
    void stop()
    {
        server.close();
    }

    private Socket connect() throws IOException
    {
        final Socket socket = new Socket("127.0.0.1", server.frontends().httpPort());
        socket.setSoTimeout(30_000);
        return socket;
    }

    private HttpResponse<byte[]> smallJsonRequest()
    {
        return server.send(new InferBody()
            .jsonInput("INPUT0", "INT32", new long[] {4}, JsonParser.parseString("[1,2,3,4]"))
            .jsonInput("INPUT1", "INT32", new long[] {4}, JsonParser.parseString("[1,1,1,1]"))
            .request(server.httpUrl() + "/v2/models/add_sub_int/infer"));
    }

    private HttpResponse<byte[]> binaryRequest(final int elements)
    {
        final float[] values = new float[elements];
        return server.send(new InferBody()
            .binaryInput("INPUT0", "FP32", new long[] {elements}, InferBody.fp32(values))
            .output("OUTPUT0", true)
            .request(server.httpUrl() + "/v2/models/identity_fp32/infer"));
    }

    private static boolean closedByServer(final InputStream in)
    {
        try
        {
            return in.read() < 0;
        }
        catch (final SocketException reset)
        {
            return true;
        }
        catch (final IOException other)
        {
            return false;
        }
    }

    @Test
    void threeHundredConnectionsDeclaring64MiBDoNotStarveSmallRequests() throws IOException
    {
        final List<Socket> holders = new ArrayList<>();
        try
        {
            for (int i = 0; i < 300; i++)
            {
                final Socket socket = connect();
                socket.getOutputStream().write(("POST /v2/models/add_sub_int/infer HTTP/1.1\r\nHost: x\r\n"
                    + "Content-Length: 67108864\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
                holders.add(socket);
            }
            // Nothing is reserved for bytes that never came: the budget (3 MiB) is untouched.
            assertEquals(0, server.frontends().http().bodyBudget().held());
            for (int i = 0; i < 5; i++)
            {
                final HttpResponse<byte[]> json = smallJsonRequest();
                assertEquals(200, json.statusCode(), new String(json.body(), StandardCharsets.UTF_8));
                final HttpResponse<byte[]> binary = binaryRequest(64 * 1024);
                assertEquals(200, binary.statusCode(), new String(binary.body(), StandardCharsets.UTF_8));
            }
        }
        finally
        {
            for (final Socket socket : holders)
            {
                socket.close();
            }
        }
    }

    @Test
    void headersThatTrickleInAreCutOffWith408() throws IOException
    {
        try (Socket socket = connect())
        {
            socket.getOutputStream().write("POST /v2/models/add_sub_int/infer HTTP/1.1\r\nHost: x\r\nX-Slow: "
                .getBytes(StandardCharsets.US_ASCII));
            final long start = System.nanoTime();
            final RawHttp.Response response = RawHttp.read(socket.getInputStream());
            assertEquals(408, response.status(), response.body());
            assertTrue(response.body().contains("the request line and headers did not arrive within 600 ms"),
                response.body());
            assertEquals("close", response.headers().get("connection"));
            assertTrue(System.nanoTime() - start >= 400_000_000L, "cut off before its deadline");
            assertTrue(closedByServer(socket.getInputStream()));
        }
    }

    @Test
    void aBodyThatTricklesInIsCutOffWith408() throws IOException
    {
        try (Socket socket = connect())
        {
            socket.getOutputStream().write(("POST /v2/models/add_sub_int/infer HTTP/1.1\r\nHost: x\r\n"
                + "Content-Length: 100000\r\n\r\n{").getBytes(StandardCharsets.US_ASCII));
            final RawHttp.Response response = RawHttp.read(socket.getInputStream());
            assertEquals(408, response.status(), response.body());
            assertTrue(response.body().contains("the request body arrived too slowly: 1 bytes in"), response.body());
            assertTrue(closedByServer(socket.getInputStream()));
        }
        // The budget is given back when the server's side of the channel closes, which may come just after the
        // client sees the close: wait for it, within a bound.
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (server.frontends().http().bodyBudget().held() != 0 && System.nanoTime() < deadline)
        {
            sleepMillis(5);
        }
        assertEquals(0, server.frontends().http().bodyBudget().held(), "the partial body was given back");
    }

    @Test
    void anIdleConnectionIsClosedAndABusyOneIsNot() throws IOException
    {
        try (Socket idle = connect())
        {
            final long start = System.nanoTime();
            assertTrue(closedByServer(idle.getInputStream()));
            assertTrue(System.nanoTime() - start >= 1_000_000_000L, "closed before the idle timeout");
        }
        // Pipelined requests served for longer than every timeout (six of the slow model's 300 ms) are answered.
        try (Socket socket = connect())
        {
            final String body = "{\"inputs\":[{\"name\":\"INPUT0\",\"datatype\":\"INT32\",\"shape\":[1,1],"
                + "\"data\":[7]}]}";
            for (int i = 0; i < 6; i++)
            {
                socket.getOutputStream().write(("POST /v2/models/slow_timeout/infer HTTP/1.1\r\nHost: x\r\n"
                    + "Content-Length: " + body.length() + "\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII));
            }
            for (int i = 0; i < 6; i++)
            {
                final RawHttp.Response response = RawHttp.read(socket.getInputStream());
                assertEquals(200, response.status(), response.body());
            }
        }
    }

    @Test
    void bodiesBeyondTheMemoryBudgetGet503AndTheBudgetComesBack() throws IOException, InterruptedException
    {
        // A body of which 1 MiB arrived holds 2 MiB (buffers double as bytes arrive) of the 3 MiB budget...
        try (Socket holder = connect())
        {
            holder.getOutputStream().write(RawHttp.request("POST /v2/models/add_sub_int/infer HTTP/1.1\r\n"
                + "Host: x\r\nContent-Length: 3000000\r\n\r\n", new byte[(1 << 20) + 4096]));
            final long deadline = System.nanoTime() + 10_000_000_000L;
            while (server.frontends().http().bodyBudget().held() < 2L << 20 && System.nanoTime() < deadline)
            {
                Thread.sleep(5);
            }
            assertEquals(2L << 20, server.frontends().http().bodyBudget().held());
            // ...so a second body of 1.5 MiB cannot be held: it is answered 503 and the server goes on.
            try (Socket second = connect())
            {
                second.getOutputStream().write(RawHttp.request("POST /v2/models/add_sub_int/infer HTTP/1.1\r\n"
                    + "Host: x\r\nContent-Length: 1572864\r\n\r\n", new byte[1572864]));
                final RawHttp.Response refused = RawHttp.read(second.getInputStream());
                assertEquals(503, refused.status(), refused.body());
                assertTrue(refused.body().contains("Server is out of memory for request bodies")
                    && refused.body().contains("of " + BODY_MEMORY + " bytes are held"), refused.body());
            }
            assertEquals(200, smallJsonRequest().statusCode());
        }
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (server.frontends().http().bodyBudget().held() > 0 && System.nanoTime() < deadline)
        {
            Thread.sleep(5);
        }
        assertEquals(0, server.frontends().http().bodyBudget().held(), "closed connections give their memory back");
    }

    @Test
    void connectionsBeyondTheLimitAreClosedAtOnce() throws IOException
    {
        try (ServingFixture limited = new ServingFixture(options -> options.withHttpLimits(HttpLimits.defaults()
            .withMaxConnections(3))))
        {
            final List<Socket> open = new ArrayList<>();
            try
            {
                for (int i = 0; i < 3; i++)
                {
                    open.add(new Socket("127.0.0.1", limited.frontends().httpPort()));
                }
                try (Socket fourth = new Socket("127.0.0.1", limited.frontends().httpPort()))
                {
                    fourth.setSoTimeout(30_000);
                    assertTrue(closedByServer(fourth.getInputStream()), "the fourth connection stays open");
                }
                final Socket first = open.getFirst();
                first.setSoTimeout(30_000);
                first.getOutputStream().write("GET /v2/health/live HTTP/1.1\r\nHost: x\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
                assertEquals(200, RawHttp.read(first.getInputStream()).status());
            }
            finally
            {
                for (final Socket socket : open)
                {
                    socket.close();
                }
            }
            final long deadline = System.nanoTime() + 10_000_000_000L;
            int status = 0;
            while (status != 200 && System.nanoTime() < deadline)
            {
                try
                {
                    status = limited.get("/v2/health/live").statusCode();
                }
                catch (final RuntimeException stillFull)
                {
                    status = 0;
                }
            }
            assertEquals(200, status, "once connections close, new ones are accepted");
        }
    }

    private static void sleepMillis(final long millis)
    {
        try
        {
            Thread.sleep(millis);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting", ex);
        }
    }
}
