package io.ingot.core;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.InferenceRequest;
import io.ingot.api.ModelIndexEntry;
import io.ingot.tensor.DataType;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Request validation in Triton's words (core src/infer_request.cc: Normalize, ValidateRequestInputs,
 * ValidateBytesInputs), and the output labels a model version reads from {@code label_filename} (core src/model.cc,
 * src/label_provider.cc).
 */
class TritonRequestMessagesTest
{
    private static final ValueLayout.OfInt LENGTH = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private static InferenceCore core()
    {
        return TestModels.core(TestModels.config("""
            name: "strings" backend: "identity" max_batch_size: 0
            input [{ name: "INPUT0" data_type: TYPE_STRING dims: [2] }]
            output [{ name: "OUTPUT0" data_type: TYPE_STRING dims: [2] }]
            """), TestModels.config("""
            name: "pair" backend: "add_sub" max_batch_size: 4
            input [{ name: "INPUT0" data_type: TYPE_FP32 dims: [2] }, { name: "INPUT1" data_type: TYPE_FP32 dims: [2] }]
            output [{ name: "OUTPUT0" data_type: TYPE_FP32 dims: [2] },
                    { name: "OUTPUT1" data_type: TYPE_FP32 dims: [2] }]
            """));
    }

    private static String refused(final InferenceCore core, final InferenceRequest request)
    {
        return assertThrows(InferenceException.class, () -> core.submit(request)).getMessage();
    }

    /** BYTES data: each length prefix as given, followed by that many zero bytes, then {@code extraBytes}. */
    private static MemorySegment strings(final int extraBytes, final int... lengths)
    {
        long size = extraBytes;
        for (final int length : lengths)
        {
            size += 4 + length;
        }
        final MemorySegment data = Arena.ofAuto().allocate(Math.max(1, size)).asSlice(0, size);
        long offset = 0;
        for (final int length : lengths)
        {
            data.set(LENGTH, offset, length);
            offset += 4 + length;
        }
        return data;
    }

    @Test
    void bytesInputsAreWalkedAsTritonWalksThem()
    {
        try (InferenceCore core = core())
        {
            assertEquals("[request id: <id_unknown>] expected 2 string elements for inference input 'INPUT0' for "
                + "model 'strings', got 1", refused(core, new InferenceRequest("strings")
                .addInput("INPUT0", DataType.BYTES, new long[] {2}, strings(0, 3))));
            assertEquals("[request id: <id_unknown>] unexpected number of string elements 3 for inference input "
                + "'INPUT0' for model 'strings', expecting 2", refused(core, new InferenceRequest("strings")
                .addInput("INPUT0", DataType.BYTES, new long[] {2}, strings(0, 1, 1, 1))));
            assertEquals("[request id: <id_unknown>] incomplete string length indicator for inference input 'INPUT0' "
                + "for model 'strings', expecting 4 bytes but only 2 bytes available. Please make sure the string "
                + "length indicator is in one buffer.", refused(core, new InferenceRequest("strings")
                .addInput("INPUT0", DataType.BYTES, new long[] {2}, strings(2, 1))));
        }
    }

    @Test
    void batchAndCountMessagesAreTritons()
    {
        try (InferenceCore core = core())
        {
            final MemorySegment two = Arena.ofAuto().allocate(8, 4);
            final MemorySegment four = Arena.ofAuto().allocate(16, 4);
            assertTrue(refused(core, new InferenceRequest("pair")
                .addInput("INPUT0", DataType.FP32, new long[] {1, 2}, two)
                .addInput("INPUT1", DataType.FP32, new long[] {2, 2}, four))
                .startsWith("[request id: <id_unknown>] input 'INPUT1' batch size does not match other inputs for "
                    + "'pair'"));
            assertEquals("[request id: <id_unknown>] input 'INPUT0' has no shape but model requires batch dimension "
                + "for 'pair'", refused(core, new InferenceRequest("pair")
                .addInput("INPUT0", DataType.FP32, new long[] {}, two)
                .addInput("INPUT1", DataType.FP32, new long[] {1, 2}, two)));
            assertEquals("[request id: <id_unknown>] expected 2 inputs but got 0 inputs for model 'pair'. Got input(s) "
                + "[], but missing required input(s) ['INPUT0','INPUT1']. Please provide all required input(s).",
                refused(core, new InferenceRequest("pair")));
            assertEquals("[request id: <id_unknown>] inference request batch-size must be <= 4 for 'pair'",
                refused(core, new InferenceRequest("pair")
                    .addInput("INPUT0", DataType.FP32, new long[] {5, 2}, Arena.ofAuto().allocate(40))
                    .addInput("INPUT1", DataType.FP32, new long[] {5, 2}, Arena.ofAuto().allocate(40))));
            assertTrue(refused(core, new InferenceRequest("pair")
                .addInput("INPUT0", DataType.FP32, new long[] {1, -1}, two)
                .addInput("INPUT1", DataType.FP32, new long[] {1, 2}, two))
                .contains("All input dimensions should be specified for input 'INPUT0' for model 'pair', got [1,-1]"));
        }
    }

    private static void model(final Path repo, final String name, final String config) throws IOException
    {
        Files.createDirectories(repo.resolve(name).resolve("1"));
        Files.writeString(repo.resolve(name).resolve("config.pbtxt"), config);
    }

    @Test
    void labelsAreReadFromTheModelDirectoryAndAMissingFileFailsTheLoad(@TempDir final Path repo) throws IOException
    {
        final String config = """
            backend: "identity" max_batch_size: 0
            input [{ name: "INPUT0" data_type: TYPE_FP32 dims: [3] }]
            output [{ name: "OUTPUT0" data_type: TYPE_FP32 dims: [3] label_filename: "labels.txt" }]
            """;
        model(repo, "labelled", config);
        Files.writeString(repo.resolve("labelled/labels.txt"), "cat\n\nbird");
        model(repo, "unlabelled", config);
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(repo).build()))
        {
            // Every line is a label, the empty one too (std::getline); no trailing newline is needed.
            assertEquals(List.of("cat", "", "bird"), core.outputLabels("labelled", -1, "OUTPUT0"));
            assertEquals(List.of(), core.outputLabels("labelled", -1, "INPUT0"));
            final ModelIndexEntry missing = core.repositoryIndex(false).stream()
                .filter(entry -> entry.name().equals("unlabelled")).findFirst().orElseThrow();
            assertEquals("UNAVAILABLE", missing.state());
            assertTrue(missing.reason().contains("failed to open text file for read ")
                && missing.reason().contains("labels.txt: No such file or directory"), missing.reason());
        }
    }
}
