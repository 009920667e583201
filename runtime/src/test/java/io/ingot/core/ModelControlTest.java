package io.ingot.core;

import io.ingot.api.CoreOptions;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelControlMode;
import io.ingot.api.ModelIndexEntry;
import io.ingot.api.ModelLoadOverrides;
import io.ingot.tensor.DataType;
import io.ingot.testing.RecordingBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import static io.ingot.core.RepositoryServingTest.model;
import static io.ingot.testing.TestModels.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Model control as Triton's model-repository extension defines it: POLL mode adding, reloading and removing models
 * while an unchanged model serves, load overrides (configuration, files), unload, the repository index and the
 * messages of the wrong mode.
 */
class ModelControlTest
{
    private static final Duration BOUND = Duration.ofSeconds(60);

    private static String identity(final int maxBatch)
    {
        return "backend: \"identity\"\nmax_batch_size: " + maxBatch + "\n"
            + "input [ { name: \"INPUT0\" data_type: TYPE_FP32 dims: [ -1 ] } ]\n"
            + "output [ { name: \"OUTPUT0\" data_type: TYPE_FP32 dims: [ -1 ] } ]\n";
    }

    private static final String IDENTITY_JSON = "{\"backend\":\"identity\",\"max_batch_size\":\"4\","
        + "\"input\":[{\"name\":\"INPUT0\",\"data_type\":\"TYPE_FP32\",\"dims\":[-1]}],"
        + "\"output\":[{\"name\":\"OUTPUT0\",\"data_type\":\"TYPE_FP32\",\"dims\":[-1]}]}";

    private static InferenceRequest request(final String model)
    {
        final MemorySegment data = Arena.ofAuto().allocate(16, 4);
        return new InferenceRequest(model).addInput("INPUT0", DataType.FP32, new long[] {1, 4}, data);
    }

    private static void awaitTrue(final BooleanSupplier condition, final String what)
    {
        final long deadline = System.nanoTime() + BOUND.toNanos();
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() > deadline)
            {
                fail("not within " + BOUND + ": " + what);
            }
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    private static void deleteTree(final Path root) throws IOException
    {
        try (Stream<Path> paths = Files.walk(root))
        {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList())
            {
                Files.delete(path);
            }
        }
    }

    /** Sends requests to one model, one at a time, until stopped; counts successes and keeps every failure. */
    private static final class SteadyClient implements AutoCloseable
    {
        final AtomicLong successes = new AtomicLong();
        final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;

        SteadyClient(final InferenceCore core, final String model)
        {
            thread = Thread.ofPlatform().name("steady-client").start(() ->
            {
                while (running.get())
                {
                    try (InferenceResponse response = await(core.submit(request(model))))
                    {
                        if (response.isOk())
                        {
                            successes.incrementAndGet();
                        }
                        else
                        {
                            failures.add(String.valueOf(response.error()));
                        }
                    }
                    catch (final InferenceException rejected)
                    {
                        failures.add(rejected.getMessage());
                    }
                }
            });
        }

        @Override
        public void close() throws InterruptedException
        {
            running.set(false);
            thread.join();
        }
    }

    @Test
    void pollAddsReloadsAndRemovesModelsWhileAnUnchangedModelServesEveryRequest(@TempDir final Path repo)
        throws Exception
    {
        model(repo, "steady", identity(8), "1");
        model(repo, "changing", identity(8), "1");
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(repo)
            .controlMode(ModelControlMode.POLL).repositoryPollSeconds(1).build()))
        {
            assertTrue(core.isModelReady("steady", 1));
            final SteadyClient client = new SteadyClient(core, "steady");
            try (client)
            {
                model(repo, "added", identity(8), "1");
                awaitTrue(() -> core.isModelReady("added", 1), "the added model loads");
                assertTrue(await(core.submit(request("added"))).isOk());

                Files.writeString(repo.resolve("changing/config.pbtxt"), identity(4));
                awaitTrue(() -> core.modelConfig("changing", -1).getMaxBatchSize() == 4,
                    "the changed configuration is served");
                Files.createDirectories(repo.resolve("changing/2"));
                awaitTrue(() -> core.isModelReady("changing", 2) && !core.isModelReady("changing", 1),
                    "a new version directory reloads the model (latest policy: version 2 only)");

                // A broken configuration does not take the serving model down; the poll that sees the second
                // addition has seen the broken configuration written before it.
                Files.writeString(repo.resolve("changing/config.pbtxt"), "max_batch_size: -3 backend: \"identity\"");
                model(repo, "witness", identity(8), "1");
                awaitTrue(() -> core.isModelReady("witness", 1), "the witness model loads");
                assertTrue(core.isModelReady("changing", 2), "the failed reload keeps the old versions");
                assertEquals(4, core.modelConfig("changing", -1).getMaxBatchSize());

                deleteTree(repo.resolve("added"));
                awaitTrue(() -> core.repositoryIndex(false).stream().noneMatch(e -> e.name().equals("added")),
                    "the removed model leaves the index");
                assertFalse(core.isModelReady("added", 1));
                final InferenceException gone = assertThrows(InferenceException.class,
                    () -> core.submit(request("added")));
                assertEquals(ErrorCode.INVALID_ARG, gone.code());
                awaitTrue(() -> client.successes.get() > 0, "the steady client is answered");
            }
            assertEquals(List.of(), List.copyOf(client.failures), "requests to the unchanged model all succeed");

            final InferenceException load = assertThrows(InferenceException.class, () -> core.loadModel("steady"));
            assertEquals(ErrorCode.UNAVAILABLE, load.code());
            assertEquals(ModelController.NOT_EXPLICIT, load.getMessage());
            final InferenceException unload = assertThrows(InferenceException.class,
                () -> core.unloadModel("steady"));
            assertEquals(ModelController.NOT_EXPLICIT, unload.getMessage());
        }
    }

    @Test
    void everyPollRetriesAModelThatFailedToLoadEvenWhenItsFilesDidNotChange(@TempDir final Path repo)
        throws Exception
    {
        final String recording = identity(4).replace("backend: \"identity\"", "backend: \"recording\"")
            .replace("TYPE_FP32", "TYPE_INT32");
        model(repo, "flaky", recording, "1");
        final RecordingBackend backend = new RecordingBackend();
        backend.failLoads("the engine's license server is down");
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(repo)
            .controlMode(ModelControlMode.POLL).repositoryPollSeconds(1).backend(backend).build()))
        {
            assertEquals(List.of(new ModelIndexEntry("flaky", "1", "UNAVAILABLE",
                "Internal: the engine's license server is down")), core.repositoryIndex(false));
            backend.failLoads(null);
            awaitTrue(() -> core.isModelReady("flaky", 1), "a later poll loads the unchanged model");
        }
    }

    @Test
    void loadAndUnloadOutsideExplicitModeAnswerTritonsText(@TempDir final Path repo) throws Exception
    {
        model(repo, "m", identity(8), "1");
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(repo).build()))
        {
            final InferenceException load = assertThrows(InferenceException.class,
                () -> core.loadModel("m", ModelLoadOverrides.config(IDENTITY_JSON)));
            assertEquals(ErrorCode.UNAVAILABLE, load.code());
            assertEquals("explicit model load / unload is not allowed if polling is enabled", load.getMessage());
            final InferenceException unload = assertThrows(InferenceException.class,
                () -> core.unloadModel("m", true));
            assertEquals("explicit model load / unload is not allowed if polling is enabled", unload.getMessage());
            assertTrue(core.isModelReady("m", 1));
        }
    }

    @Test
    void aConfigOverrideIsServedAndAPlainLoadRestoresTheRepositorysConfig(@TempDir final Path repo)
        throws Exception
    {
        model(repo, "m", identity(8), "1", "2");
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(repo)
            .controlMode(ModelControlMode.EXPLICIT).build()))
        {
            assertEquals(List.of(new ModelIndexEntry("m", "", "", "")), core.repositoryIndex(false),
                "a model never loaded carries only its name");
            core.loadModel("m", ModelLoadOverrides.config(IDENTITY_JSON.replace("{\"backend\"",
                "{\"version_policy\":{\"specific\":{\"versions\":[1]}},\"backend\"")));
            assertEquals(4, core.modelConfig("m", -1).getMaxBatchSize());
            assertTrue(core.isModelReady("m", 1));
            assertFalse(core.isModelReady("m", 2), "the override's version policy selects version 1");
            assertTrue(await(core.submit(request("m"))).isOk());
            assertEquals(identity(8), Files.readString(repo.resolve("m/config.pbtxt")),
                "the repository is not written");

            core.loadModel("m");
            assertEquals(8, core.modelConfig("m", -1).getMaxBatchSize());
            assertTrue(core.isModelReady("m", 2));

            final InferenceException malformed = assertThrows(InferenceException.class,
                () -> core.loadModel("m", ModelLoadOverrides.config("{\"max_batch_size\": ")));
            assertEquals(ErrorCode.INTERNAL, malformed.code());
            assertTrue(malformed.getMessage().startsWith("failed to load 'm', failed to poll from model repository: "
                + "Invalid config override: "), malformed.getMessage());
            final InferenceException otherName = assertThrows(InferenceException.class,
                () -> core.loadModel("m", ModelLoadOverrides.config("{\"name\":\"x\",\"backend\":\"identity\"}")));
            assertTrue(otherName.getMessage().contains("unexpected directory name 'm' for model 'x', directory "
                + "name must equal model name"), otherName.getMessage());
            assertEquals(8, core.modelConfig("m", -1).getMaxBatchSize(), "a failed reload keeps the old versions");

            core.unloadModel("m", true);
            assertEquals(List.of(new ModelIndexEntry("m", "2", "UNAVAILABLE", "unloaded")),
                core.repositoryIndex(false), "as Triton's index: each unloaded version, 'unloaded'");
            assertEquals(List.of(), core.repositoryIndex(true));
            core.unloadModel("never_loaded");
        }
    }

    @Test
    void aVersionThatFailsFailsTheLoadAndTheIndexGivesEachVersionsStateAsTriton(@TempDir final Path repo)
        throws Exception
    {
        final String recording = identity(4).replace("backend: \"identity\"", "backend: \"recording\"")
            .replace("TYPE_FP32", "TYPE_INT32") + "version_policy: { all: {} }\n";
        model(repo, "split", recording, "1", "2", "3");
        Files.createFile(repo.resolve("split/2").resolve(RecordingBackend.FAIL_LOAD));
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(repo)
            .controlMode(ModelControlMode.EXPLICIT).backend(new RecordingBackend()).build()))
        {
            final InferenceException failed = assertThrows(InferenceException.class, () -> core.loadModel("split"));
            assertEquals(ErrorCode.INVALID_ARG, failed.code());
            assertEquals("load failed for model 'split': version 2 is at UNAVAILABLE state: Internal: injected load "
                + "failure of version 2;", failed.getMessage());
            assertEquals(List.of(new ModelIndexEntry("split", "1", "UNAVAILABLE", "unloaded"),
                    new ModelIndexEntry("split", "2", "UNAVAILABLE", "Internal: injected load failure of version 2"),
                    new ModelIndexEntry("split", "3", "UNAVAILABLE", "unloaded")),
                core.repositoryIndex(false), "the versions that loaded are unloaded again, as Triton does");
            assertFalse(core.isModelReady("split", 1));

            Files.delete(repo.resolve("split/2").resolve(RecordingBackend.FAIL_LOAD));
            core.loadModel("split");
            assertEquals(List.of("1", "2", "3"), core.repositoryIndex(true).stream().map(ModelIndexEntry::version)
                .toList());
        }
    }

    @Test
    void aFileOverrideLoadsFromAPrivateDirectoryThatUnloadDeletes(@TempDir final Path repo) throws Exception
    {
        model(repo, "m", identity(8), "3");
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(repo)
            .controlMode(ModelControlMode.EXPLICIT).startupModel("m").build()))
        {
            final byte[] weights = "weights".getBytes(StandardCharsets.UTF_8);
            final InferenceException noConfig = assertThrows(InferenceException.class,
                () -> core.loadModel("m", new ModelLoadOverrides(null, java.util.Map.of("1/w.bin", weights))));
            assertEquals("failed to load 'm', failed to poll from model repository: Load parameter 'config' must be "
                + "specified for model file override", noConfig.getMessage());
            assertTrue(core.isModelReady("m", 3), "the failed load leaves the loaded model serving");

            final String unique = "override_" + System.nanoTime();
            core.loadModel(unique, ModelLoadOverrides.config(IDENTITY_JSON).withFile("1/w.bin", weights));
            assertTrue(core.isModelReady(unique, 1));
            assertTrue(await(core.submit(request(unique))).isOk());
            final List<Path> written = overrideDirectories(unique);
            assertEquals(1, written.size(), written.toString());
            assertTrue(Files.readString(written.getFirst().resolve("config.pbtxt")).contains("max_batch_size: 4"));
            assertEquals("weights", Files.readString(written.getFirst().resolve("1/w.bin")));

            // The same files under the repository model's name replace its directory: version 1, not 3.
            core.loadModel("m", ModelLoadOverrides.config(IDENTITY_JSON).withFile("1/w.bin", weights));
            assertTrue(core.isModelReady("m", 1));
            assertFalse(core.isModelReady("m", 3));
            core.loadModel("m");
            assertTrue(core.isModelReady("m", 3), "a plain load reads the repository again");
            assertFalse(core.isModelReady("m", 1));

            core.unloadModel(unique);
            assertEquals(List.of(), overrideDirectories(unique), "unload deletes the override directory");

            final InferenceException escape = assertThrows(InferenceException.class, () -> core.loadModel("x",
                ModelLoadOverrides.config(IDENTITY_JSON).withFile("../../escape.txt", weights)));
            assertEquals(ErrorCode.INVALID_ARG, escape.code());
            assertTrue(escape.getMessage().startsWith("Invalid file parameter 'file:../../escape.txt' with "
                + "normalized path '"), escape.getMessage());
            assertTrue(escape.getMessage().endsWith("' must stay within model directory."), escape.getMessage());
            assertEquals(List.of(), overrideDirectories("x"), "a failed override leaves no directory behind");

            final InferenceException traversal = assertThrows(InferenceException.class,
                () -> core.loadModel("../m", ModelLoadOverrides.config(IDENTITY_JSON)));
            assertEquals("invalid model name '../m', model name must not contain path traversal characters",
                traversal.getMessage());
        }
    }

    @Test
    void overridesLargerThanTheBoundAreRefusedBeforeAnythingIsWritten(@TempDir final Path repo) throws Exception
    {
        model(repo, "m", identity(8), "1");
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(repo)
            .controlMode(ModelControlMode.EXPLICIT).startupModel("m").maxModelOverrideBytes(1024).build()))
        {
            final String unique = "big_" + System.nanoTime();
            final InferenceException tooBig = assertThrows(InferenceException.class, () -> core.loadModel(unique,
                ModelLoadOverrides.config(IDENTITY_JSON).withFile("1/model.bin", new byte[1024])));
            assertEquals(ErrorCode.INVALID_ARG, tooBig.code());
            assertEquals("failed to load '" + unique + "': the overrides of the load request hold "
                + (1024 + IDENTITY_JSON.length()) + " bytes, more than the limit of 1024 bytes "
                + "(CoreOptions.maxModelOverrideBytes)", tooBig.getMessage());
            assertEquals(List.of(), overrideDirectories(unique));
            assertTrue(core.isModelReady("m", 1));
            assertTrue(core.repositoryIndex(false).stream().noneMatch(e -> e.name().equals(unique)));
        }
    }

    @Test
    void aNameInTwoRepositoriesIsIndexedWithTritonsReason(@TempDir final Path first, @TempDir final Path second)
        throws Exception
    {
        model(first, "twice", identity(8), "1");
        model(second, "twice", identity(8), "1");
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(first)
            .modelRepository(second).build()))
        {
            assertEquals(List.of(new ModelIndexEntry("twice", "", "UNAVAILABLE",
                "model appears in two or more repositories")), core.repositoryIndex(false));
        }
    }

    /** The override directories of a model: {@code <tmp>/ingot-model-*}{@code /<model>}. */
    private static List<Path> overrideDirectories(final String model) throws IOException
    {
        try (Stream<Path> roots = Files.list(Path.of(System.getProperty("java.io.tmpdir"))))
        {
            return roots.filter(root -> root.getFileName().toString().startsWith("ingot-model-"))
                .map(root -> root.resolve(model)).filter(Files::isDirectory).toList();
        }
    }
}
