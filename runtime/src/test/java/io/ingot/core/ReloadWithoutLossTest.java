package io.ingot.core;

import io.ingot.api.CoreOptions;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelControlMode;
import io.ingot.api.ModelLoadOverrides;
import io.ingot.api.ModelStatistics;
import io.ingot.testing.RecordingBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static io.ingot.core.RepositoryServingTest.model;
import static io.ingot.testing.TestModels.await;
import static io.ingot.testing.TestModels.tagged;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Loading a model that is already loaded (issue 29, deliverable 8): the serving version answers until the new one is
 * ready, then the new one takes every new request; what the old one accepted (queued or running) finishes on it; no
 * request is lost or answered twice, also under load; a reload whose configuration is invalid leaves the old version
 * serving and answers Triton's error.
 */
class ReloadWithoutLossTest
{
    private static String recording(final int maxBatch, final String extra)
    {
        return "backend: \"recording\"\nmax_batch_size: " + maxBatch + "\n"
            + "input [ { name: \"INPUT0\" data_type: TYPE_INT32 dims: [ 1 ] } ]\n"
            + "output [ { name: \"OUTPUT0\" data_type: TYPE_INT32 dims: [ 1 ] } ]\n"
            + "instance_group [ { kind: KIND_CPU count: 1 } ]\n" + extra;
    }

    private static String json(final int maxBatch, final String extra)
    {
        return "{\"backend\":\"recording\",\"max_batch_size\":" + maxBatch + ","
            + "\"input\":[{\"name\":\"INPUT0\",\"data_type\":\"TYPE_INT32\",\"dims\":[1]}],"
            + "\"output\":[{\"name\":\"OUTPUT0\",\"data_type\":\"TYPE_INT32\",\"dims\":[1]}],"
            + "\"instance_group\":[{\"kind\":\"KIND_CPU\",\"count\":1}]" + extra + "}";
    }

    @Test
    void queuedAndRunningRequestsFinishOnTheOldVersionWhileNewRequestsGoToTheNewOne(@TempDir final Path repo)
        throws Exception
    {
        model(repo, "m", recording(1, "dynamic_batching { }\nversion_policy: { specific: { versions: [1] } }\n"),
            "1", "2");
        final RecordingBackend backend = new RecordingBackend();
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(repo)
            .controlMode(ModelControlMode.EXPLICIT).startupModel("m").backend(backend).build()))
        {
            final CompletableFuture<InferenceResponse> running = core.submit(tagged("m", RecordingBackend.GATE, 1));
            backend.recorder("m").awaitGateReached();
            final List<CompletableFuture<InferenceResponse>> queued = new ArrayList<>();
            for (int tag = 1; tag <= 5; tag++)
            {
                queued.add(core.submit(tagged("m", tag, 1)));
            }

            // The new configuration serves version 2: which version answered shows in every response.
            final CompletableFuture<Void> reload = CompletableFuture.runAsync(() -> core.loadModel("m",
                ModelLoadOverrides.config(json(1, ",\"dynamic_batching\":{},"
                    + "\"version_policy\":{\"specific\":{\"versions\":[2]}}"))));
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!core.isModelReady("m", 2))
            {
                assertTrue(System.nanoTime() < deadline, "version 2 never became ready");
                Thread.sleep(5);
            }
            // Switched: new requests are answered by version 2 while version 1 still holds its queue.
            try (InferenceResponse fresh = await(core.submit(tagged("m", 100, 1))))
            {
                assertTrue(fresh.isOk(), String.valueOf(fresh.error()));
                assertEquals(2, fresh.modelVersion());
            }
            assertFalse(reload.isDone(), "the load returns once the replaced version has answered everything");
            for (final CompletableFuture<InferenceResponse> waiting : queued)
            {
                assertFalse(waiting.isDone(), "a queued request waits for its own version's instance");
            }

            backend.recorder("m").openGate();
            reload.get(30, TimeUnit.SECONDS);
            try (InferenceResponse first = await(running))
            {
                assertTrue(first.isOk(), String.valueOf(first.error()));
                assertEquals(1, first.modelVersion());
            }
            for (final CompletableFuture<InferenceResponse> waiting : queued)
            {
                try (InferenceResponse response = await(waiting))
                {
                    assertTrue(response.isOk(), "a request queued before the reload is executed, not refused: "
                        + response.error());
                    assertEquals(1, response.modelVersion(), "it finished on the version that accepted it");
                }
            }
            assertFalse(core.isModelReady("m", 1));
        }
    }

    @Test
    void aReloadWithAnInvalidConfigurationLeavesTheOldVersionServingAndAnswersTritonsError(@TempDir final Path repo)
        throws Exception
    {
        model(repo, "m", recording(8, "dynamic_batching { }\n"), "1");
        final RecordingBackend backend = new RecordingBackend();
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(repo)
            .controlMode(ModelControlMode.EXPLICIT).startupModel("m").backend(backend).build());
             LoadingClients clients = new LoadingClients(core, "m", 2))
        {
            clients.awaitAnswers(50);
            final InferenceException invalid = assertThrows(InferenceException.class, () -> core.loadModel("m",
                ModelLoadOverrides.config(json(-3, ""))));
            assertEquals(ErrorCode.INTERNAL, invalid.code());
            assertTrue(invalid.getMessage().startsWith("failed to load 'm', failed to poll from model repository"),
                invalid.getMessage());
            final InferenceException unknownField = assertThrows(InferenceException.class, () -> core.loadModel("m",
                ModelLoadOverrides.config(json(8, ",\"no_such_field\":1"))));
            assertTrue(unknownField.getMessage().startsWith("failed to load 'm', failed to poll from model "
                + "repository"), unknownField.getMessage());
            // Triton's L0_lifecycle test_model_reload_fail: the new version fails to load, the old one serves on.
            Files.createFile(repo.resolve("m/1").resolve(RecordingBackend.FAIL_LOAD));
            final InferenceException versionFails = assertThrows(InferenceException.class, () -> core.loadModel("m",
                ModelLoadOverrides.config(json(4, ",\"dynamic_batching\":{}"))));
            assertEquals(ErrorCode.INVALID_ARG, versionFails.code());
            assertEquals("load failed for model 'm': version 1 is at UNAVAILABLE state: Internal: injected load "
                + "failure of version 1;", versionFails.getMessage());
            assertTrue(core.isModelReady("m", 1), "the old version keeps serving");
            assertEquals(8, core.modelConfig("m", 1).getMaxBatchSize());
            final long before = clients.answered();
            clients.awaitAnswers(before + 50);
            clients.close();
            clients.assertNothingLost();
        }
    }

    @Test
    void reloadsUnderLoadLoseNoRequestAndAnswerEachOnce(@TempDir final Path repo) throws Exception
    {
        model(repo, "m", recording(8, "dynamic_batching { }\nparameters [ { key: \"execute_us\" value: "
            + "{ string_value: \"200\" } } ]\n"), "1");
        final RecordingBackend backend = new RecordingBackend();
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(repo)
            .controlMode(ModelControlMode.EXPLICIT).startupModel("m").backend(backend).build());
             LoadingClients clients = new LoadingClients(core, "m", 4))
        {
            clients.awaitAnswers(100);
            for (int reload = 0; reload < 12; reload++)
            {
                final int maxBatch = reload % 2 == 0 ? 4 : 8;
                final String extra = ",\"dynamic_batching\":{\"max_queue_delay_microseconds\":" + (reload * 50) + "},"
                    + "\"parameters\":{\"execute_us\":{\"string_value\":\"200\"}}";
                final long before = clients.answered();
                core.loadModel("m", ModelLoadOverrides.config(json(maxBatch, extra)));
                assertEquals(maxBatch, core.modelConfig("m", 1).getMaxBatchSize());
                // Requests flow between reloads, so that every reload finds requests queued and running.
                clients.awaitAnswers(before + 20);
            }
            clients.close();
            clients.assertNothingLost();
            final ModelStatistics stats = core.modelStatistics("m", 1).getFirst();
            assertEquals(0L, stats.failures().values().stream().mapToLong(Long::longValue).sum(),
                "the serving version counted no failure");
        }
    }

    /**
     * Closed-loop clients: each submits one request and waits for its response before the next. Every submission
     * that is accepted must be answered exactly once, successfully; a synchronous refusal is a lost request.
     */
    private static final class LoadingClients implements AutoCloseable
    {
        private final InferenceCore core;
        private final String model;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AtomicLong answered = new AtomicLong();
        private final AtomicInteger submitted = new AtomicInteger();
        private final ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        private final ConcurrentHashMap<Integer, AtomicInteger> answersByRequest = new ConcurrentHashMap<>();
        private final List<Thread> threads = new ArrayList<>();

        LoadingClients(final InferenceCore core, final String model, final int count)
        {
            this.core = core;
            this.model = model;
            for (int i = 0; i < count; i++)
            {
                threads.add(Thread.ofPlatform().name("reload-client-" + i).start(this::loop));
            }
        }

        private void loop()
        {
            while (running.get())
            {
                final int tag = submitted.incrementAndGet();
                final InferenceRequest request = tagged(model, tag, 1);
                final CompletableFuture<InferenceResponse> done = new CompletableFuture<>();
                try
                {
                    core.submit(request, response ->
                    {
                        if (answersByRequest.computeIfAbsent(tag, t -> new AtomicInteger()).incrementAndGet() > 1)
                        {
                            problems.add("request " + tag + " was answered twice");
                        }
                        done.complete(response);
                    });
                }
                catch (final InferenceException refused)
                {
                    problems.add("request " + tag + " was refused: " + refused.getMessage());
                    continue;
                }
                try (InferenceResponse response = await(done))
                {
                    if (!response.isOk())
                    {
                        problems.add("request " + tag + " failed: " + response.error());
                    }
                    else if (response.output("OUTPUT0").data().getAtIndex(ValueLayout.JAVA_INT, 0)
                        != tag)
                    {
                        problems.add("request " + tag + " got another request's output");
                    }
                }
                answered.incrementAndGet();
            }
        }

        long answered()
        {
            return answered.get();
        }

        void awaitAnswers(final long count) throws InterruptedException
        {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (answered.get() < count)
            {
                assertTrue(System.nanoTime() < deadline, "only " + answered.get() + " of " + count + " answers "
                    + "within 60 s; problems: " + problems);
                Thread.sleep(1);
            }
        }

        void assertNothingLost()
        {
            assertEquals(List.of(), List.copyOf(problems));
            assertEquals(submitted.get(), answersByRequest.size(), "every submitted request was answered");
            assertEquals(submitted.get(), answered.get());
        }

        @Override
        public void close() throws InterruptedException
        {
            running.set(false);
            for (final Thread thread : threads)
            {
                thread.join();
            }
        }
    }
}
