package io.ingot.core;

import io.ingot.api.CoreOptions;
import io.ingot.tensor.DataType;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelControlMode;
import io.ingot.api.ModelIndexEntry;
import io.ingot.api.ModelMetadata;
import io.ingot.api.ModelStatistics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.ingot.testing.TestModels.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A core built from a Triton model repository on disk: many models, versions, failures, explicit control. */
class RepositoryServingTest
{
    private static final String ADD_SUB = """
        name: "add_sub"
        backend: "add_sub"
        max_batch_size: 8
        input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 16 ] },
                { name: "INPUT1" data_type: TYPE_FP32 dims: [ 16 ] } ]
        output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 16 ] },
                 { name: "OUTPUT1" data_type: TYPE_FP32 dims: [ 16 ] } ]
        dynamic_batching { preferred_batch_size: [ 4, 8 ] max_queue_delay_microseconds: 2000 }
        """;

    private static final String IDENTITY = """
        backend: "identity"
        max_batch_size: 8
        version_policy: { all { } }
        input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ -1 ] } ]
        output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ -1 ] } ]
        """;

    /** Writes a model directory: its configuration and empty version directories. Shared with ModelControlTest. */
    static void model(final Path repo, final String name, final String config, final String... versions)
        throws IOException
    {
        final Path dir = Files.createDirectories(repo.resolve(name));
        Files.writeString(dir.resolve("config.pbtxt"), config);
        for (final String version : versions)
        {
            Files.createDirectories(dir.resolve(version));
        }
    }

    private static InferenceRequest addSubRequest(final float base)
    {
        final MemorySegment a = Arena.ofAuto().allocate(64, 4);
        final MemorySegment b = Arena.ofAuto().allocate(64, 4);
        for (int i = 0; i < 16; i++)
        {
            a.setAtIndex(ValueLayout.JAVA_FLOAT, i, base + i);
            b.setAtIndex(ValueLayout.JAVA_FLOAT, i, 1f);
        }
        return new InferenceRequest("add_sub").addInput("INPUT0", DataType.FP32, new long[] {1, 16}, a)
            .addInput("INPUT1", DataType.FP32, new long[] {1, 16}, b);
    }

    @Test
    void servesEveryGoodModelAndReportsTheBrokenOneWithItsReason(@TempDir final Path repo) throws Exception
    {
        model(repo, "add_sub", ADD_SUB, "1");
        model(repo, "identity", IDENTITY, "1", "2", "01", "beta");
        model(repo, "broken", "name: 'broken' backend: 'identity' max_batch_size: -1", "1");
        model(repo, "nobackend", "backend: 'no_such_backend' max_batch_size: 1"
            + " input [{ name: 'I' data_type: TYPE_FP32 dims: [1] }] output [{ name: 'O' data_type: TYPE_FP32 dims:"
            + " [1] }]",
            "1");
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(repo).build()))
        {
            try (InferenceResponse response = await(core.submit(addSubRequest(10))))
            {
                assertTrue(response.isOk(), String.valueOf(response.error()));
                final MemorySegment sum = response.output("OUTPUT0").data();
                assertEquals(12f, sum.getAtIndex(ValueLayout.JAVA_FLOAT, 1));
                assertEquals(List.of(1L, 16L), List.of(response.output("OUTPUT0").dim(0),
                    response.output("OUTPUT0").dim(1)));
            }
            // Version policy "all": versions 1 and 2; "01" and "beta" are ignored.
            final ModelMetadata identity = core.modelMetadata("identity", -1);
            assertEquals(List.of("1", "2"), identity.versions());
            assertEquals(List.of(-1L, -1L), identity.inputs().get(0).shape());
            assertTrue(core.isModelReady("identity", 2));
            assertFalse(core.isModelReady("identity", 3));

            final List<ModelIndexEntry> index = core.repositoryIndex(false);
            final ModelIndexEntry broken = index.stream().filter(e -> e.name().equals("broken")).findFirst()
                .orElseThrow();
            assertEquals("UNAVAILABLE", broken.state());
            assertTrue(broken.reason().contains("'max_batch_size' must be non-negative value for broken"),
                broken.reason());
            final ModelIndexEntry noBackend = index.stream().filter(e -> e.name().equals("nobackend")).findFirst()
                .orElseThrow();
            assertTrue(noBackend.reason().contains("no_such_backend"), noBackend.reason());
            assertFalse(core.isReady(), "a model failed to load: not ready (Triton's strict readiness)");
            assertTrue(core.isLive());

            final InferenceException unavailable = assertThrows(InferenceException.class,
                () -> core.submit(new InferenceRequest("broken")));
            assertEquals(ErrorCode.UNAVAILABLE, unavailable.code());
        }
    }

    @Test
    void aConfigUsingEveryDynamicBatchingAndQueuePolicyFieldLoadsAndServes(@TempDir final Path repo) throws Exception
    {
        final String everyField;
        try (var in = RepositoryServingTest.class.getResourceAsStream("/config/every_dynamic_batching_field.pbtxt"))
        {
            everyField = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        // The same file, served by the built-in identity backend instead of ONNX Runtime; its 1 ms queue timeout is
        // stretched so that a busy test machine cannot expire the requests this test expects to succeed.
        model(repo, "every_field", everyField.replace("backend: \"onnxruntime\"", "backend: \"identity\"")
            .replace("default_timeout_microseconds: 1000\n", "default_timeout_microseconds: 10000000\n"), "1");
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(repo).build()))
        {
            assertTrue(core.isModelReady("every_field", 1), core.repositoryIndex(false).toString());
            final var batching = core.modelConfig("every_field", 1).getDynamicBatching();
            assertEquals(3, batching.getPriorityLevels());
            assertEquals(10, batching.getPriorityQueuePolicyMap().get(1L).getMaxQueueSize());
            final MemorySegment row = Arena.ofAuto().allocate(16, 4);
            for (long priority = 0; priority <= 3; priority++)
            {
                try (InferenceResponse response = await(core.submit(new InferenceRequest("every_field")
                    .priority(priority).timeoutMicros(500_000)
                    .addInput("INPUT0", DataType.FP32, new long[] {1, 4}, row))))
                {
                    assertTrue(response.isOk(), "priority " + priority + ": " + response.error());
                }
            }
        }
    }

    @Test
    void statisticsFollowTritonsShape(@TempDir final Path repo) throws Exception
    {
        model(repo, "add_sub", ADD_SUB, "1");
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(repo).build()))
        {
            for (int i = 0; i < 3; i++)
            {
                await(core.submit(addSubRequest(i))).close();
            }
            final ModelStatistics stats = core.modelStatistics("add_sub", 1).get(0);
            assertEquals("add_sub", stats.name());
            assertEquals("1", stats.version());
            assertEquals(3, stats.inferenceCount());
            assertEquals(3, stats.inferenceStats().success().count());
            assertEquals(3, stats.inferenceStats().queue().count());
            assertEquals(3, stats.inferenceStats().computeInfer().count());
            assertEquals(0, stats.inferenceStats().fail().count());
            assertTrue(stats.lastInference() > 0);
            final long executions = stats.batchStats().stream().mapToLong(b -> b.computeInfer().count()).sum();
            assertEquals(stats.executionCount(), executions);
            assertTrue(stats.inferenceStats().success().ns() >= stats.inferenceStats().queue().ns());
            final InferenceException unknown = assertThrows(InferenceException.class,
                () -> core.modelStatistics("nope", -1));
            assertEquals(ErrorCode.INVALID_ARG, unknown.code());
        }
    }

    @Test
    void explicitModeLoadsAndUnloadsOnRequest(@TempDir final Path repo) throws Exception
    {
        model(repo, "add_sub", ADD_SUB, "1");
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(repo)
            .controlMode(ModelControlMode.EXPLICIT).build()))
        {
            assertThrows(InferenceException.class, () -> core.submit(addSubRequest(0)));
            assertEquals(new ModelIndexEntry("add_sub", "", "", ""), core.repositoryIndex(false).get(0),
                "a model that was never loaded carries only its name, as in Triton");
            core.loadModel("add_sub");
            assertTrue(await(core.submit(addSubRequest(0))).isOk());
            core.unloadModel("add_sub");
            assertFalse(core.isModelReady("add_sub", -1));
            final InferenceException gone = assertThrows(InferenceException.class,
                () -> core.submit(addSubRequest(0)));
            assertEquals(ErrorCode.UNAVAILABLE, gone.code());
            final InferenceException missing = assertThrows(InferenceException.class, () -> core.loadModel("nope"));
            assertTrue(missing.getMessage().contains("nope"));
        }
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(repo).build()))
        {
            final InferenceException notExplicit = assertThrows(InferenceException.class,
                () -> core.unloadModel("add_sub"));
            assertEquals("explicit model load / unload is not allowed if polling is enabled",
                notExplicit.getMessage());
        }
    }
}
