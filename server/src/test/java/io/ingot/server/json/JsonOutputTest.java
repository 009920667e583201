package io.ingot.server.json;

import com.google.gson.JsonParser;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

class JsonOutputTest
{
    @Test
    void placesCommasAndEscapesStrings()
    {
        final ByteBuf out = Unpooled.buffer();
        new JsonOutput(out).beginObject()
            .name("a").value("q\"\\\u0001\u00e9\ud83d\ude00")
            .name("b").beginArray().value(1).value(true).beginObject().endObject().beginArray().endArray().endArray()
            .name("c").unsignedValue(-1L)
            .name("d").value(0.5)
            .endObject();
        final String text = out.toString(StandardCharsets.UTF_8);
        assertEquals("{\"a\":\"q\\\"\\\\\\u0001\u00e9\ud83d\ude00\",\"b\":[1,true,{},[]],"
            + "\"c\":18446744073709551615,\"d\":0.5}", text);
        assertEquals("q\"\\\u0001\u00e9\ud83d\ude00",
            JsonParser.parseString(text).getAsJsonObject().get("a").getAsString());
    }
}
