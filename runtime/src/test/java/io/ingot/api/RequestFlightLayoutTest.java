package io.ingot.api;

import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.info.FieldLayout;

import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where the JVM puts a request's flight fields (issue 34). A flight writes its two flags from both threads, once per
 * request: they must share one 8-byte word, so that the writes take one cache line wherever the object lies (an
 * object starts at any multiple of 8, a line at multiples of 64), and nothing else may share their line. When the
 * hook was written by every flight as well, one address in eight put it on the next line, and runs so laid out
 * were a third slower. Read with JOL from the running JVM's own layout (its header size, its field order).
 */
class RequestFlightLayoutTest
{
    @Test
    void theTwoFlagsShareOneWordAndNoOtherObjectReachesTheirLine()
    {
        final ClassLayout layout = ClassLayout.parseClass(RequestFlight.class);
        final Map<String, Long> offsets = new TreeMap<>();
        for (final FieldLayout field : layout.fields())
        {
            offsets.put(field.name(), field.offset());
        }
        final long word = offsets.get("inFlight") / 8 * 8;
        assertEquals(word, offsets.get("cancelled") / 8 * 8,
            "inFlight and cancelled in different 8-byte words: " + offsets);
        // The flags' line starts at most 56 bytes before their word and ends at most 56 bytes after it: the object
        // itself must cover that much on both sides, or a neighbouring object's fields can share the line.
        assertTrue(word >= 56, "only " + word + " bytes of the object before the flags' word: " + offsets);
        assertTrue(layout.instanceSize() - (word + 8) >= 56, "only " + (layout.instanceSize() - word - 8)
            + " bytes of the object after the flags' word (instance size " + layout.instanceSize() + "): " + offsets);
    }
}
