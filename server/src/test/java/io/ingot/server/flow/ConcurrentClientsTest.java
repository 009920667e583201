package io.ingot.server.flow;

import io.ingot.server.testing.InferBody;
import io.ingot.server.testing.InferResult;
import io.ingot.server.testing.ServingFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** 64 concurrent HTTP clients × 200 requests each to the batching add_sub model: every answer is its own. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConcurrentClientsTest
{
    private static final int CLIENTS = 64;
    private static final int REQUESTS_PER_CLIENT = 200;

    private final ServingFixture server = new ServingFixture();

    @AfterAll
    void stop()
    {
        server.close();
    }

    @Test
    void everyAnswerIsCorrectAndNothingIsLost() throws Exception
    {
        final AtomicLong correct = new AtomicLong();
        final String url = server.httpUrl() + "/v2/models/add_sub/infer";
        final List<Future<?>> clients = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(CLIENTS))
        {
            for (int c = 0; c < CLIENTS; c++)
            {
                final int client = c;
                clients.add(pool.submit(() ->
                {
                    for (int r = 0; r < REQUESTS_PER_CLIENT; r++)
                    {
                        // Values unique to this client and request, so that a swapped answer is caught.
                        final float[] a = new float[16];
                        final float[] b = new float[16];
                        for (int i = 0; i < 16; i++)
                        {
                            a[i] = client * 1000 + r + i * 0.25f;
                            b[i] = i - client;
                        }
                        final HttpResponse<byte[]> response = server.send(new InferBody().id(client + "-" + r)
                            .binaryInput("INPUT0", "FP32", new long[] {1, 16}, InferBody.fp32(a))
                            .binaryInput("INPUT1", "FP32", new long[] {1, 16}, InferBody.fp32(b))
                            .output("OUTPUT0", true).output("OUTPUT1", r % 2 == 0)
                            .request(url));
                        final InferResult result = InferResult.of(response);
                        assertEquals(200, result.status(), result.json().toString());
                        assertEquals(client + "-" + r, result.json().get("id").getAsString());
                        final float[] sum = result.fp32("OUTPUT0");
                        final float[] difference = result.fp32("OUTPUT1");
                        for (int i = 0; i < 16; i++)
                        {
                            assertEquals(a[i] + b[i], sum[i], "client " + client + " request " + r);
                            assertEquals(a[i] - b[i], difference[i], "client " + client + " request " + r);
                        }
                        correct.incrementAndGet();
                    }
                    return null;
                }));
            }
            for (final Future<?> client : clients)
            {
                client.get(10, TimeUnit.MINUTES);
            }
        }
        assertEquals((long) CLIENTS * REQUESTS_PER_CLIENT, correct.get());
        final var stats = server.core().modelStatistics("add_sub", -1).getFirst();
        assertEquals((long) CLIENTS * REQUESTS_PER_CLIENT, stats.inferenceStats().success().count());
        assertEquals(0, stats.inferenceStats().fail().count());
    }
}
