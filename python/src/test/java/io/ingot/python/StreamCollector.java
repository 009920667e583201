package io.ingot.python;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceResponse;
import io.ingot.api.OutputTensor;
import io.ingot.api.ResponseStreamListener;
import io.ingot.tensor.DataType;

import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Collects the responses of a streamed request (a decoupled model's), each copied out and closed as it arrives: its
 * INT32 and UINT32 outputs as ints, its BYTES outputs as strings, or its error.
 */
final class StreamCollector implements ResponseStreamListener
{
    /** One response as it arrived. */
    record Event(boolean last, boolean empty, ErrorCode code, String error, Map<String, int[]> ints,
        Map<String, List<String>> texts)
    {
        int[] ints(final String output)
        {
            return ints.get(output);
        }
    }

    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();

    @Override
    public void onResponse(final InferenceResponse response, final boolean last)
    {
        if (response == null)
        {
            events.add(new Event(last, true, null, null, Map.of(), Map.of()));
            return;
        }
        try (response)
        {
            if (!response.isOk())
            {
                events.add(new Event(last, false, response.error().code(), response.error().getMessage(), Map.of(),
                    Map.of()));
                return;
            }
            final Map<String, int[]> ints = new LinkedHashMap<>();
            final Map<String, List<String>> texts = new LinkedHashMap<>();
            for (int o = 0; o < response.outputCount(); o++)
            {
                final OutputTensor output = response.output(o);
                if (output.dataType() == DataType.BYTES)
                {
                    texts.put(output.name(), strings(output));
                }
                else if (output.dataType().byteSize() == 4)
                {
                    ints.put(output.name(), output.data().toArray(ValueLayout.JAVA_INT));
                }
            }
            events.add(new Event(last, response.outputCount() == 0, null, null, ints, texts));
        }
    }

    /** @return the next response, waiting at most 30 s */
    Event next() throws InterruptedException
    {
        final Event event = events.poll(30, TimeUnit.SECONDS);
        assertNotNull(event, "no response within 30 s");
        return event;
    }

    /** @return every response up to and including the final one */
    List<Event> all() throws InterruptedException
    {
        final List<Event> all = new ArrayList<>();
        Event event;
        do
        {
            event = next();
            all.add(event);
        }
        while (!event.last());
        return all;
    }

    /** @return whether a response arrives within the time */
    boolean nothingWithin(final long millis) throws InterruptedException
    {
        return events.poll(millis, TimeUnit.MILLISECONDS) == null;
    }

    private static List<String> strings(final OutputTensor output)
    {
        final byte[] bytes = output.data().toArray(ValueLayout.JAVA_BYTE);
        final List<String> values = new ArrayList<>();
        int at = 0;
        while (at + 4 <= bytes.length)
        {
            final int length = (bytes[at] & 0xFF) | (bytes[at + 1] & 0xFF) << 8 | (bytes[at + 2] & 0xFF) << 16
                | (bytes[at + 3] & 0xFF) << 24;
            values.add(new String(bytes, at + 4, length, StandardCharsets.UTF_8));
            at += 4 + length;
        }
        return values;
    }
}
