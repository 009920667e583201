package io.ingot.warmup;

import io.ingot.api.CoreOptions;
import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelControlMode;
import io.ingot.api.ModelIndexEntry;
import io.ingot.api.ModelStatistics;
import io.ingot.testing.RecordingBackend;
import io.ingot.api.InferenceRequest;
import io.ingot.tensor.DataType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static io.ingot.testing.TestModels.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code model_warmup} as Triton runs it: each sample {@code count} times on every instance, {@code batch_size} rows
 * of zeros, random bytes or a file's bytes, before the version is ready; a failing sample fails the load with
 * Triton's message and leaves what already serves alone.
 */
class ModelWarmupTest
{
    /** Triton's index reasons start with the status code's name. */
    private static final String INVALID = "Invalid argument: ";
    private static final String INTERNAL = "Internal: ";

    /** This test's own recording backend: what it records is seen by no other test. */
    private final RecordingBackend recording = new RecordingBackend();

    private static String config(final String name, final String inputType, final int instances,
        final String warmup)
    {
        return "name: '" + name + "' backend: 'recording' max_batch_size: 4"
            + " instance_group [{ kind: KIND_CPU count: " + instances + " }]"
            + " input [{ name: 'INPUT0' data_type: " + inputType + " dims: [2] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_INT32 dims: [2] }]"
            + " model_warmup [" + warmup + "]";
    }

    private static String sample(final String name, final int batchSize, final int count, final String type,
        final String dims, final String data)
    {
        return "{ name: '" + name + "' batch_size: " + batchSize + " count: " + count
            + " inputs { key: 'INPUT0' value: { data_type: " + type + " dims: " + dims + " " + data + " } } }";
    }

    private static void model(final Path repo, final String name, final String config) throws IOException
    {
        final Path dir = Files.createDirectories(repo.resolve(name));
        Files.writeString(dir.resolve("config.pbtxt"), config);
        Files.createDirectories(dir.resolve("1"));
    }

    private static void warmupFile(final Path repo, final String model, final String file, final int... values)
        throws IOException
    {
        final ByteBuffer bytes = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (final int value : values)
        {
            bytes.putInt(value);
        }
        final Path dir = Files.createDirectories(repo.resolve(model).resolve(WarmupPlan.WARMUP_FOLDER));
        Files.write(dir.resolve(file), bytes.array());
    }

    private static InferenceRequest request(final String model, final int tag)
    {
        return new InferenceRequest(model).id("r" + tag).addInput("INPUT0", DataType.INT32, new long[] {1, 2},
            MemorySegment.ofArray(new int[] {tag, tag}));
    }

    private CoreOptions.Builder options(final Path repo)
    {
        return CoreOptions.builder().modelRepository(repo).backend(recording);
    }

    private static ModelStatistics statistics(final InferenceCore core, final String model)
    {
        return core.modelStatistics(model, 1).getFirst();
    }

    private static String reason(final InferenceCore core, final String model)
    {
        return core.repositoryIndex(false).stream().filter(e -> e.name().equals(model)).findFirst()
            .map(ModelIndexEntry::reason).orElseThrow();
    }

    @Test
    void zeroDataRunsCountTimesOnEveryInstanceAsOneBatchOfBatchSizeRows(@TempDir final Path repo) throws Exception
    {
        model(repo, "warm", config("warm", "TYPE_INT32", 2,
            sample("zero sample", 3, 2, "TYPE_INT32", "[2]", "zero_data: true")));
        final List<String> log = Collections.synchronizedList(new ArrayList<>());
        final Logger logger = Logger.getLogger(WarmupRunner.class.getName());
        final Handler handler = new Handler()
        {
            @Override
            public void publish(final LogRecord record)
            {
                if (record.getMessage().startsWith("model 'warm' "))
                {
                    log.add(record.getMessage());
                }
            }

            @Override
            public void flush()
            {
            }

            @Override
            public void close()
            {
            }
        };
        logger.addHandler(handler);
        try (InferenceCore core = InferenceCore.open(options(repo).build()))
        {
            assertTrue(core.isModelReady("warm", 1));
            final RecordingBackend.Recorder recorder = recording.recorder("warm");
            // Two instances, two iterations each, each iteration one execution of three zero rows.
            assertEquals(List.of(List.of(0, 0, 0), List.of(0, 0, 0), List.of(0, 0, 0), List.of(0, 0, 0)),
                recorder.batches);
            assertEquals(List.of("warm_0_0", "warm_0_0", "warm_0_1", "warm_0_1"), recorder.instances);
            // Triton counts warmup requests in the statistics; a client reading them right after the load sees them.
            final ModelStatistics stats = statistics(core, "warm");
            assertEquals(12, stats.inferenceCount());
            assertEquals(4, stats.executionCount());
            assertEquals(List.of(
                "model 'warm' instance warm_0_0 is running warmup sample 'zero sample' for iteration 1",
                "model 'warm' instance warm_0_0 is running warmup sample 'zero sample' for iteration 2",
                "model 'warm' instance warm_0_1 is running warmup sample 'zero sample' for iteration 1",
                "model 'warm' instance warm_0_1 is running warmup sample 'zero sample' for iteration 2"), log);

            try (InferenceResponse response = await(core.submit(request("warm", 5))))
            {
                assertTrue(response.isOk(), String.valueOf(response.error()));
            }
            assertEquals(5, recorder.batches.size());
        }
        finally
        {
            logger.removeHandler(handler);
        }
    }

    @Test
    void fileDataFeedsEveryRowAndCountZeroRunsOnceAndBatchSizeZeroIsSkipped(@TempDir final Path repo)
        throws Exception
    {
        model(repo, "filed", config("filed", "TYPE_INT32", 1,
            sample("from file", 2, 0, "TYPE_INT32", "[2]", "input_data_file: 'INPUT0.bin'") + ", "
                + sample("skipped", 0, 3, "TYPE_INT32", "[2]", "zero_data: true")));
        warmupFile(repo, "filed", "INPUT0.bin", 7, 8);
        try (InferenceCore core = InferenceCore.open(options(repo).build()))
        {
            assertTrue(core.isModelReady("filed", 1), reason(core, "filed"));
            assertEquals(List.of(List.of(7, 7)), recording.recorder("filed").batches);
        }
    }

    @Test
    void randomDataRunsAndStringRandomDataIsEmptyStrings(@TempDir final Path repo) throws Exception
    {
        model(repo, "random", config("random", "TYPE_INT32", 1,
            sample("noise", 1, 1, "TYPE_INT32", "[2]", "random_data: true")));
        model(repo, "strings", config("strings", "TYPE_STRING", 1,
            sample("random string", 4, 1, "TYPE_STRING", "[2]", "random_data: true")));
        try (InferenceCore core = InferenceCore.open(options(repo).build()))
        {
            assertTrue(core.isModelReady("random", 1), reason(core, "random"));
            assertEquals(1, recording.recorder("random").batches.size());
            assertEquals(1, recording.recorder("random").batches.getFirst().size());
            assertTrue(core.isModelReady("strings", 1), reason(core, "strings"));
            // Random STRING data falls back to zeros, as in Triton: every element an empty string (length 0).
            assertEquals(List.of(List.of(0, 0, 0, 0)), recording.recorder("strings").batches);
        }
    }

    @Test
    void theVersionIsNotReadyWhileItsWarmupRuns(@TempDir final Path repo) throws Exception
    {
        model(repo, "gated", config("gated", "TYPE_INT32", 2,
            sample("gate", 1, 1, "TYPE_INT32", "[2]", "input_data_file: 'gate.bin'")));
        warmupFile(repo, "gated", "gate.bin", RecordingBackend.GATE, RecordingBackend.GATE);
        try (InferenceCore core = InferenceCore.open(options(repo).controlMode(ModelControlMode.EXPLICIT).build()))
        {
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            final Thread loader = Thread.ofPlatform().start(() ->
            {
                try
                {
                    core.loadModel("gated");
                }
                catch (final Throwable ex)
                {
                    failure.set(ex);
                }
            });
            final RecordingBackend.Recorder recorder = recording.recorder("gated");
            recorder.awaitGateReached();
            assertFalse(core.isModelReady("gated", 1), "ready while instance warm_0_0 is still warming up");
            assertFalse(core.repositoryIndex(true).stream().anyMatch(e -> e.name().equals("gated")));
            assertThrows(InferenceException.class, () -> core.submit(request("gated", 1)));
            recorder.openGate();
            loader.join(30_000);
            assertEquals(null, failure.get());
            assertTrue(core.isModelReady("gated", 1));
            assertEquals(List.of("gated_0_0", "gated_0_1"), recorder.instances);
        }
    }

    @Test
    void aFailingSampleFailsTheLoadWithTritonsMessage(@TempDir final Path repo) throws Exception
    {
        model(repo, "failing", config("failing", "TYPE_INT32", 1,
            sample("zero sample", 1, 1, "TYPE_INT32", "[2]", "input_data_file: 'fail.bin'")));
        warmupFile(repo, "failing", "fail.bin", RecordingBackend.FAIL, 0);
        try (InferenceCore core = InferenceCore.open(options(repo).build()))
        {
            assertFalse(core.isModelReady("failing", 1));
            final String reason = reason(core, "failing");
            assertTrue(reason.startsWith(INVALID
                + "failed to run warmup sample 'zero sample': model 'failing' version 1"
                + " instance failing_0_0 failed to execute a batch of 1: injected failure; "), reason);
            assertTrue(reason.endsWith("(model 'failing', instance failing_0_0, iteration 1)"), reason);
            assertFalse(core.isReady());
        }
    }

    @Test
    void aMissingOrShortFileNamesModelSampleInputFileAndBytes(@TempDir final Path repo) throws Exception
    {
        model(repo, "missing", config("missing", "TYPE_INT32", 1,
            sample("from file", 1, 1, "TYPE_INT32", "[2]", "input_data_file: 'nope.bin'")));
        model(repo, "short", config("short", "TYPE_INT32", 1,
            sample("short sample", 1, 1, "TYPE_INT32", "[2]", "input_data_file: 'short.bin'")));
        warmupFile(repo, "short", "short.bin", 1);
        model(repo, "variable", config("variable", "TYPE_INT32", 1,
            sample("open dims", 1, 1, "TYPE_INT32", "[-1]", "zero_data: true")));
        model(repo, "wrongtype", config("wrongtype", "TYPE_INT32", 1,
            sample("typed", 1, 1, "TYPE_FP32", "[2]", "zero_data: true")));
        model(repo, "nodata", config("nodata", "TYPE_INT32", 1,
            sample("empty", 1, 1, "TYPE_INT32", "[2]", "")));
        model(repo, "toobig", config("toobig", "TYPE_INT32", 1,
            sample("big", 5, 1, "TYPE_INT32", "[2]", "zero_data: true")));
        try (InferenceCore core = InferenceCore.open(options(repo).build()))
        {
            final Path nope = repo.resolve("missing").resolve("warmup").resolve("nope.bin");
            assertEquals(INTERNAL + "failed to open text file for read " + nope + ": No such file or directory"
                + " (model 'missing', warmup sample 'from file', input 'INPUT0')", reason(core, "missing"));
            final Path shortFile = repo.resolve("short").resolve("warmup").resolve("short.bin");
            assertEquals(INVALID
                + "[request id: <id_unknown>] warmup setting expects 8 bytes, but the data provided from"
                + " short.binonly has 4 bytes; input 'INPUT0', file " + shortFile + ", dims [2] of INT32"
                + " (model 'short', warmup sample 'short sample')", reason(core, "short"));
            assertTrue(reason(core, "variable").startsWith(INVALID
                + "warmup setting expects all variable-size dimensions are"
                + " specified for input 'INPUT0'"), reason(core, "variable"));
            assertTrue(reason(core, "wrongtype").startsWith(INVALID
                + "[request id: <id_unknown>] inference input 'INPUT0'"
                + " data-type is 'FP32', but model 'wrongtype' expects 'INT32'"), reason(core, "wrongtype"));
            assertTrue(reason(core, "wrongtype").endsWith("(model 'wrongtype', warmup sample 'typed')"),
                reason(core, "wrongtype"));
            assertTrue(reason(core, "nodata").startsWith(INVALID
                + "[request id: <id_unknown>] warmup setting expects input"
                + " 'INPUT0' to have input_data_type set"), reason(core, "nodata"));
            assertTrue(reason(core, "toobig").startsWith(INVALID
                + "warmup sample 'big' of model 'toobig' has batch_size 5,"
                + " but the model's max_batch_size is 4"), reason(core, "toobig"));
            for (final String model : List.of("missing", "short", "variable", "wrongtype", "nodata", "toobig"))
            {
                assertFalse(core.isModelReady(model, 1), model);
                assertTrue(recording.recorder(model).batches.isEmpty(), model + " must not have executed");
            }
        }
    }

    @Test
    void aFailedReloadLeavesTheServingVersionAlone(@TempDir final Path repo) throws Exception
    {
        model(repo, "steady", config("steady", "TYPE_INT32", 1,
            sample("zero sample", 1, 1, "TYPE_INT32", "[2]", "zero_data: true")));
        try (InferenceCore core = InferenceCore.open(options(repo).controlMode(ModelControlMode.EXPLICIT)
            .startupModel("steady").build()))
        {
            assertTrue(core.isModelReady("steady", 1));
            Files.writeString(repo.resolve("steady").resolve("config.pbtxt"), config("steady", "TYPE_INT32", 1,
                sample("zero sample", 1, 1, "TYPE_INT32", "[2]", "input_data_file: 'gone.bin'")));
            final InferenceException failed = assertThrows(InferenceException.class, () -> core.loadModel("steady"));
            assertEquals(ErrorCode.INVALID_ARG, failed.code());
            assertTrue(failed.getMessage().contains("failed to open text file for read "), failed.getMessage());
            assertTrue(failed.getMessage().contains("gone.bin"), failed.getMessage());
            assertTrue(core.isModelReady("steady", 1));
            try (InferenceResponse response = await(core.submit(request("steady", 3))))
            {
                assertTrue(response.isOk(), String.valueOf(response.error()));
            }
        }
    }
}
