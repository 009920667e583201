package io.ingot.ratelimit;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelControlMode;
import io.ingot.api.ModelIndexEntry;
import io.ingot.api.RateLimitMode;
import io.ingot.api.RateLimitResource;
import io.ingot.config.proto.ModelConfig;
import io.ingot.testing.RecordingBackend;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.ingot.testing.TestModels.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rate limiter in a core, with Triton's flags' meaning ({@code --rate-limit=execution_count}): instances of
 * several models that share a resource never execute at once, a waiting instance runs once the holder finishes, an
 * unload or a shutdown while it waits still answers its requests once, and a count too small fails the load with
 * Triton's message.
 */
class RateLimitedServingTest
{
    private final RecordingBackend backend = new RecordingBackend();

    /** A recording model whose instances hold {@code units} of resource {@code R} while they execute. */
    private static ModelConfig model(final String name, final int instances, final int units, final int executeUs)
    {
        return TestModels.config("name: '" + name + "' backend: 'recording' max_batch_size: 4"
            + " input [{ name: 'INPUT0' data_type: TYPE_INT32 dims: [1] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_INT32 dims: [1] }]"
            + " instance_group [{ kind: KIND_CPU count: " + instances
            + " rate_limiter { resources [{ name: 'R' count: " + units + " }] } }]"
            + " parameters { key: 'execute_us' value { string_value: '" + executeUs + "' } }");
    }

    private CoreOptions.Builder options(final RateLimitMode mode, final ModelConfig... configs)
    {
        return TestModels.options(configs).backend(backend).rateLimit(mode);
    }

    /** Executions of both models, by start time. */
    private List<long[]> spans()
    {
        final List<long[]> spans = new ArrayList<>(backend.recorder("a").spans);
        spans.addAll(backend.recorder("b").spans);
        spans.sort(Comparator.comparingLong(span -> span[0]));
        return spans;
    }

    private static int overlaps(final List<long[]> spans)
    {
        int overlaps = 0;
        long end = Long.MIN_VALUE;
        for (final long[] span : spans)
        {
            if (span[0] < end)
            {
                overlaps++;
            }
            end = Math.max(end, span[1]);
        }
        return overlaps;
    }

    private static void load(final InferenceCore core, final int requests) throws Exception
    {
        final List<CompletableFuture<InferenceResponse>> futures = new ArrayList<>();
        for (int i = 0; i < requests; i++)
        {
            futures.add(core.submit(TestModels.tagged(i % 2 == 0 ? "a" : "b", i, 1)));
        }
        for (final CompletableFuture<InferenceResponse> future : futures)
        {
            try (InferenceResponse response = await(future))
            {
                assertTrue(response.isOk(), String.valueOf(response.error()));
            }
        }
    }

    @Test
    void twoModelsSharingOneUnitNeverExecuteAtOnce() throws Exception
    {
        try (InferenceCore core = InferenceCore.open(options(RateLimitMode.EXECUTION_COUNT, model("a", 2, 1, 1000),
            model("b", 2, 1, 1000)).build()))
        {
            load(core, 60);
        }
        final List<long[]> spans = spans();
        assertFalse(backend.recorder("a").spans.isEmpty());
        assertFalse(backend.recorder("b").spans.isEmpty());
        assertEquals(0, overlaps(spans), "four instances, one unit of R: one execution at a time");
    }

    @Test
    void withTheLimiterOffTheSameInstancesOverlap() throws Exception
    {
        try (InferenceCore core = InferenceCore.open(options(RateLimitMode.OFF, model("a", 2, 1, 1000),
            model("b", 2, 1, 1000)).build()))
        {
            load(core, 60);
        }
        assertTrue(overlaps(spans()) > 0, "off (Triton's default) ignores rate_limiter: instances run as they can");
    }

    @Test
    void aWaitingInstanceRunsWhenTheHolderFinishesAlsoWhileItsModelUnloads() throws Exception
    {
        try (InferenceCore core = InferenceCore.open(options(RateLimitMode.EXECUTION_COUNT, model("a", 1, 1, 0),
            model("b", 1, 1, 0)).controlMode(ModelControlMode.EXPLICIT).startupModel("*").build()))
        {
            final CompletableFuture<InferenceResponse> gated = core.submit(TestModels.tagged("a", RecordingBackend.GATE,
                1));
            backend.recorder("a").awaitGateReached();
            final AtomicInteger answers = new AtomicInteger();
            final CompletableFuture<InferenceResponse> waiting = new CompletableFuture<>();
            core.submit(TestModels.tagged("b", 7, 1), response ->
            {
                answers.incrementAndGet();
                waiting.complete(response);
            });
            Thread.sleep(300);
            assertTrue(backend.recorder("b").batches.isEmpty(), "b's instance waits for R, which a holds");
            assertFalse(waiting.isDone());
            assertEquals(1, core.modelStatistics("b", 1).get(0).pendingRequests(),
                "a batch waiting for its resources is pending, as in Triton");
            final Thread unload = Thread.ofPlatform().start(() -> core.unloadModel("b"));
            unload.join(100);
            assertTrue(unload.isAlive(), "the unload lets the formed batch run first");
            backend.recorder("a").openGate();
            try (InferenceResponse response = waiting.get(30, TimeUnit.SECONDS))
            {
                assertTrue(response.isOk(), String.valueOf(response.error()));
            }
            unload.join(30_000);
            assertFalse(unload.isAlive());
            assertTrue(await(gated).isOk());
            assertFalse(core.isModelReady("b", 1));
            Thread.sleep(50);
            assertEquals(1, answers.get(), "exactly one response");
            assertEquals(List.of(List.of(7)), backend.recorder("b").batches);
        }
    }

    @Test
    void aShutdownWhileAnInstanceWaitsAnswersEveryRequestOnce() throws Exception
    {
        final InferenceCore core = InferenceCore.open(options(RateLimitMode.EXECUTION_COUNT, model("a", 1, 1, 0),
            model("b", 1, 1, 0)).build());
        final CompletableFuture<InferenceResponse> gated = core.submit(TestModels.tagged("a", RecordingBackend.GATE,
            1));
        backend.recorder("a").awaitGateReached();
        final List<CompletableFuture<InferenceResponse>> waiting = new ArrayList<>();
        for (int i = 0; i < 6; i++)
        {
            waiting.add(core.submit(TestModels.tagged("b", i, 1)));
        }
        Thread.sleep(300);
        assertEquals(6, core.modelStatistics("b", 1).get(0).pendingRequests(), "one waiting batch, five queued");
        final Thread close = Thread.ofPlatform().start(core::close);
        Thread.sleep(100);
        backend.recorder("a").openGate();
        close.join(30_000);
        assertFalse(close.isAlive(), "the close finished");
        assertTrue(await(gated).isOk());
        int executed = 0;
        for (final CompletableFuture<InferenceResponse> future : waiting)
        {
            try (InferenceResponse response = await(future))
            {
                executed += response.isOk() ? 1 : 0;
                assertTrue(response.isOk() || response.error().getMessage().contains("Server is stopping"),
                    String.valueOf(response.error()));
            }
        }
        assertTrue(executed >= 1, "the batch formed before the stop ran");
    }

    @Test
    void aWarmupHoldsTheInstancesResourcesToo() throws Exception
    {
        final ModelConfig warmed = model("w", 1, 1, 0).toBuilder().addModelWarmup(TestModels.config(
            "model_warmup [{ name: 'zeros' batch_size: 1 inputs { key: 'INPUT0' value { data_type: TYPE_INT32"
                + " dims: [1] zero_data: true } } }]").getModelWarmup(0)).build();
        try (InferenceCore core = InferenceCore.open(options(RateLimitMode.EXECUTION_COUNT, model("a", 1, 1, 0),
            warmed).controlMode(ModelControlMode.EXPLICIT).startupModel("*").build()))
        {
            assertEquals(1, backend.recorder("w").batches.size(), "warmed up at start-up, R free");
            final CompletableFuture<InferenceResponse> gated = core.submit(TestModels.tagged("a", RecordingBackend.GATE,
                1));
            backend.recorder("a").awaitGateReached();
            final Thread reload = Thread.ofPlatform().start(() -> core.loadModel("w"));
            reload.join(300);
            assertTrue(reload.isAlive(), "the new version's warm-up waits for R");
            assertEquals(1, backend.recorder("w").batches.size());
            backend.recorder("a").openGate();
            reload.join(30_000);
            assertFalse(reload.isAlive());
            assertTrue(await(gated).isOk());
            assertEquals(2, backend.recorder("w").batches.size());
            assertTrue(backend.recorder("w").spans.get(1)[0] >= backend.recorder("a").spans.get(0)[1],
                "the warm-up ran after a released R");
        }
    }

    @Test
    void aCountBelowAnInstancesDemandFailsTheLoadWithTritonsMessage()
    {
        try (InferenceCore core = InferenceCore.open(options(RateLimitMode.EXECUTION_COUNT, model("a", 1, 1, 0),
            model("b", 1, 2, 0)).rateLimitResource(new RateLimitResource("R", 1, RateLimitResource.EVERY_DEVICE))
            .build()))
        {
            assertTrue(core.isModelReady("a", 1));
            final ModelIndexEntry b = core.repositoryIndex(false).stream().filter(entry -> entry.name().equals("b"))
                .findFirst().orElseThrow();
            assertEquals("UNAVAILABLE", b.state());
            assertTrue(b.reason().contains("Resource count for \"R\" is limited to 1 which will prevent scheduling of "
                + "one or more model instances, the minimum required count is 2"), b.reason());
        }
    }
}
