package io.ingot.server.json;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Request JSON parsed as Triton parses it: rapidjson with kParseNanAndInfFlag and kParseIterativeFlag, its error
 * messages in Triton's form "failed to parse the request JSON buffer: MESSAGE at OFFSET" (triton_json.h).
 */
class JsonBodiesTest
{
    private static ByteBuf text(final String json)
    {
        return Unpooled.copiedBuffer(json, StandardCharsets.UTF_8);
    }

    private static String error(final String json)
    {
        final ByteBuf body = text(json);
        final InferenceException failure = assertThrows(InferenceException.class,
            () -> JsonBodies.parse(body, 0, body.readableBytes()));
        assertEquals(ErrorCode.INVALID_ARG, failure.code());
        return failure.getMessage();
    }

    @Test
    void malformedJsonIsNamedWithRapidjsonsMessageAndOffset()
    {
        assertEquals("failed to parse the request JSON buffer: Missing a comma or '}' after an object member. at 8",
            error("{\"a\": 1 \"b\": 2}"));
        assertEquals("failed to parse the request JSON buffer: Missing a name for object member. at 1", error("{1:2}"));
        assertEquals("failed to parse the request JSON buffer: The document root must not be followed by other "
            + "values. at 3", error("{} {}"));
        assertTrue(error("nul").startsWith("failed to parse the request JSON buffer: Invalid value. at "));
        assertEquals("failed to parse the request JSON buffer: The document is empty. at 2", error("  "));
        assertTrue(error("{\"a\":'x'}").contains("Invalid value."));
        assertTrue(error("[1,]").contains("Invalid value."));
        assertTrue(error("{\"a\":\"\\x\"}").contains("Invalid escape character in string."));
    }

    @Test
    void nonFiniteNumbersAreNumbersAndDeepNestingIsBounded()
    {
        final ByteBuf body = text("{\"a\": NaN, \"b\": -Infinity, \"c\": 1e5}");
        final JsonObject object = JsonBodies.object(JsonBodies.parse(body, 0, body.readableBytes()), "test");
        assertTrue(Double.isNaN(object.get("a").getAsDouble()));
        assertEquals(Double.NEGATIVE_INFINITY, object.get("b").getAsDouble());
        assertEquals("1e5", object.get("c").getAsString());
        // 100,000 open brackets never closed: a syntax error at the end, found without recursion.
        assertTrue(error("[".repeat(100_000)).startsWith("failed to parse the request JSON buffer: "),
            error("[".repeat(100_000)));
    }

    @Test
    void anyDepthParsesAsTritonsIterativeParserDoesWithTheTreeBoundedAt100Levels()
    {
        final int depth = 250_000;
        final ByteBuf body = text("{\"ready\":" + "[".repeat(depth) + "true" + "]".repeat(depth) + "}");
        final JsonElement ready = JsonBodies.object(JsonBodies.parse(body, 0, body.readableBytes()), "test")
            .get("ready");
        JsonElement level = ready;
        int levels = 1;
        while (level.getAsJsonArray().size() == 1)
        {
            level = level.getAsJsonArray().get(0);
            levels++;
        }
        assertEquals(JsonBodies.MAX_NESTING, levels, "the object and 99 arrays built, the 100th level kept empty");
        assertTrue(level.getAsJsonArray().isEmpty());
        // Past the bound the syntax is still checked.
        final ByteBuf broken = text("{\"ready\":" + "[".repeat(200) + "true," + "]".repeat(200) + "}");
        final InferenceException error = assertThrows(InferenceException.class,
            () -> JsonBodies.parse(broken, 0, broken.readableBytes()));
        assertTrue(error.getMessage().startsWith("failed to parse the request JSON buffer: Invalid value. at "),
            error.getMessage());
    }

    @Test
    void theDataOfInputsIsLocatedNotParsedSoItCostsNoTree()
    {
        final StringBuilder data = new StringBuilder("[");
        for (int i = 0; i < 200_000; i++)
        {
            data.append(i == 0 ? "" : ",").append(i % 7);
        }
        data.append(']');
        final ByteBuf body = text("{\"inputs\":[{\"name\":\"x\",\"data\":" + data + "},{\"data\":null}],"
            + "\"parameters\":{\"data\":[1]}}");
        final JsonObject request = JsonBodies.object(JsonBodies.parseInferRequest(body, 0, body.readableBytes()),
            "test");
        final JsonElement located = request.getAsJsonArray("inputs").get(0).getAsJsonObject().get("data");
        final JsonSpan span = assertInstanceOf(JsonSpan.class, located.getAsJsonPrimitive().getAsNumber());
        assertEquals(data.length(), span.end() - span.start());
        assertTrue(request.getAsJsonArray("inputs").get(1).getAsJsonObject().get("data").isJsonNull());
        assertTrue(request.getAsJsonObject("parameters").get("data").isJsonArray(), "only inputs' data is located");
        // Located data is still checked: malformed data fails the request's parse.
        final ByteBuf broken = text("{\"inputs\":[{\"data\":[1,2}]}");
        assertThrows(InferenceException.class, () -> JsonBodies.parseInferRequest(broken, 0, broken.readableBytes()));
    }
}
