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
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HTTP/1.1 details that the JDK client never produces but Triton's clients do: the C++ client's empty
 * {@code Expect:} header, {@code 100-continue}, pipelined requests, chunked bodies and malformed requests.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HttpWireTest
{
    private final ServingFixture server = new ServingFixture();

    @AfterAll
    void stop()
    {
        server.close();
    }

    private Socket connect() throws IOException
    {
        final Socket socket = new Socket("127.0.0.1", server.frontends().httpPort());
        socket.setSoTimeout(60_000);
        return socket;
    }

    private static String infer(final String extraHeaders)
    {
        final InferBody body = new InferBody()
            .jsonInput("INPUT0", "INT32", new long[] {4}, JsonParser.parseString("[1,2,3,4]"))
            .jsonInput("INPUT1", "INT32", new long[] {4}, JsonParser.parseString("[1,1,1,1]"));
        final String json = body.json();
        return "POST /v2/models/add_sub_int/infer HTTP/1.1\r\nHost: x\r\n" + extraHeaders
            + "Content-Length: " + json.length() + "\r\n\r\n" + json;
    }

    @Test
    void emptyExpectHeaderOfTheCppClientIsIgnored() throws IOException
    {
        try (Socket socket = connect())
        {
            socket.getOutputStream().write(infer("Expect: \r\nContent-Type: application/json\r\n")
                .getBytes(StandardCharsets.US_ASCII));
            final RawHttp.Response response = RawHttp.read(socket.getInputStream());
            assertEquals(200, response.status(), response.body());
            assertTrue(response.body().contains("\"data\":[2,3,4,5]"), response.body());
        }
    }

    @Test
    void expectContinueGetsAContinueFirst() throws IOException
    {
        try (Socket socket = connect())
        {
            final String full = infer("Expect: 100-continue\r\n");
            final int split = full.indexOf("\r\n\r\n") + 4;
            final OutputStream out = socket.getOutputStream();
            out.write(full.substring(0, split).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            final InputStream in = socket.getInputStream();
            assertEquals("HTTP/1.1 100 Continue", RawHttp.line(in));
            assertEquals("", RawHttp.line(in));
            out.write(full.substring(split).getBytes(StandardCharsets.US_ASCII));
            assertEquals(200, RawHttp.read(in).status());
        }
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrder() throws IOException
    {
        try (Socket socket = connect())
        {
            final String both = infer("") + "GET /v2 HTTP/1.1\r\nHost: x\r\n\r\n" + infer("");
            socket.getOutputStream().write(both.getBytes(StandardCharsets.US_ASCII));
            final InputStream in = socket.getInputStream();
            final RawHttp.Response first = RawHttp.read(in);
            final RawHttp.Response second = RawHttp.read(in);
            final RawHttp.Response third = RawHttp.read(in);
            assertTrue(first.body().contains("\"model_name\":\"add_sub_int\""), first.body());
            assertTrue(second.body().contains("\"extensions\""), second.body());
            assertTrue(third.body().contains("\"model_name\":\"add_sub_int\""), third.body());
        }
    }

    @Test
    void chunkedBodiesAreAccepted() throws IOException
    {
        final String json = new InferBody()
            .jsonInput("INPUT0", "INT32", new long[] {4}, JsonParser.parseString("[5,5,5,5]"))
            .jsonInput("INPUT1", "INT32", new long[] {4}, JsonParser.parseString("[1,2,3,4]"))
            .json();
        final int half = json.length() / 2;
        final String chunked = "POST /v2/models/add_sub_int/infer HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked"
            + "\r\n\r\n" + Integer.toHexString(half) + "\r\n" + json.substring(0, half) + "\r\n"
            + Integer.toHexString(json.length() - half) + "\r\n" + json.substring(half) + "\r\n0\r\n\r\n";
        try (Socket socket = connect())
        {
            socket.getOutputStream().write(chunked.getBytes(StandardCharsets.US_ASCII));
            final RawHttp.Response response = RawHttp.read(socket.getInputStream());
            assertEquals(200, response.status(), response.body());
            assertTrue(response.body().contains("\"data\":[6,7,8,9]"), response.body());
        }
    }

    @Test
    void malformedHttpIsAnswered400AndClosed() throws IOException
    {
        try (Socket socket = connect())
        {
            socket.getOutputStream().write(RawHttp.request("POST /v2/models/add_sub_int/infer HTTP/1.1\r\nHost: x\r\n"
                + "Content-Length: banana\r\n\r\n", new byte[0]));
            final RawHttp.Response response = RawHttp.read(socket.getInputStream());
            assertEquals(400, response.status());
            assertTrue(response.body().contains("\"error\""), response.body());
            assertEquals("close", response.headers().get("connection"));
            assertEquals(-1, socket.getInputStream().read(), "the connection is closed");
        }
        // and the server keeps serving
        assertEquals(200, server.get("/v2/health/ready").statusCode());
    }

    @Test
    void connectionCloseIsHonoured() throws IOException
    {
        try (Socket socket = connect())
        {
            socket.getOutputStream().write(RawHttp.request("GET /v2/health/live HTTP/1.1\r\nHost: x\r\n"
                + "Connection: close\r\n\r\n", new byte[0]));
            final RawHttp.Response response = RawHttp.read(socket.getInputStream());
            assertEquals(200, response.status());
            assertEquals(-1, socket.getInputStream().read());
        }
    }
}
