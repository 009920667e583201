package io.ingot.pytorch;

import io.ingot.testing.ChildProcess;
import io.ingot.testing.TritonSources;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Triton's {@code qa/L0_request_cancellation/implicit_state_model} ({@code config.pbtxt} and {@code model.pt},
 * unchanged; {@code forward(delay_itrs, seq_start, seq_id, seq_state_in)}) served with its implicit state, as
 * Triton's {@code implicit_state_test.py} expects: the model sets its state to the correlation ID at START and then
 * returns it unchanged, printing "[MODEL ERROR] Invalid sequence state" whenever a request of a sequence is given a
 * state that is not that sequence's. Triton's files are found under {@code INGOT_TRITON_SOURCES} (default: the folder
 * {@code triton-sources} beside the project); without them the test is skipped with the reason.
 */
class TritonImplicitStateTest
{
    @TempDir
    Path repository;


    @Test
    void tritonsImplicitStateModelCarriesEachSequencesStateAndResetsItPerSequence() throws Exception
    {
        final Path model = TritonSources.require("server/qa/L0_request_cancellation/implicit_state_model",
            "Triton's implicit_state_model");
        Assumptions.assumeTrue(Files.isRegularFile(model.resolve("model.pt")), "Triton's implicit_state_model is not"
            + " at " + model + " (set INGOT_TRITON_SOURCES to the folder holding Triton's server repository)");
        // As Triton's L0_request_cancellation/test.sh lays it out: models/sequence_state/{config.pbtxt,1/model.pt}.
        final String config = Files.readString(model.resolve("config.pbtxt"));
        copy(model, "sequence_state", config);
        final String inverted = config.replace("fp32_false_true: [ 0, 1 ]", "fp32_false_true: [ 1, 0 ]");
        assertFalse(inverted.equals(config), "START's fp32_false_true in Triton's config.pbtxt changed");
        copy(model, "sequence_state_inverted", inverted);

        try (ChildProcess child = ChildProcess.start(TritonImplicitStateMain.class, repository.toString()))
        {
            child.awaitLine("inverted ", 120);
            assertEquals(0, child.awaitExit(60), child.output());
            final List<String> lines = child.output().lines().toList();
            final String output = child.output();
            assertTrue(lines.contains("model sequence_state READY "), output);
            assertTrue(lines.contains("sequence 1 [1, 1, 1]"), output);
            // Had START not reset the slot, or the state of sequence 1 (idled out, not ended) leaked into the slot,
            // these would be 1, and the model would print its error.
            assertTrue(lines.contains("sequence 2 [2, 2, 2, 2]"), output);
            assertTrue(lines.contains("sequence 3 [3, 3, 3, 3]"), output);
            // They ran in the one candidate slot only once sequence 1 idled out (6 s after its last request).
            final String took = "sequences 2 and 3 took ";
            final long waited = lines.stream().filter(line -> line.startsWith(took))
                .mapToLong(line -> Long.parseLong(line.substring(took.length(), line.indexOf(" ms")))).findFirst()
                .orElseThrow();
            assertTrue(waited >= 5_000, output);
            final int marker = lines.indexOf(TritonImplicitStateMain.MARKER);
            assertTrue(marker > 0, output);
            assertTrue(lines.subList(0, marker).stream().noneMatch(line -> line.contains("[MODEL ERROR]")), output);
            // The same model with START inverted sees a non-start request whose state (zeros) is not its ID: the
            // model's error is printed where this test reads it, so its absence above means something.
            assertTrue(lines.subList(marker, lines.size()).stream()
                .anyMatch(line -> line.contains("[MODEL ERROR] Invalid sequence state, expect")), output);
        }
    }

    private void copy(final Path model, final String name, final String config) throws Exception
    {
        final Path target = Files.createDirectories(repository.resolve(name).resolve("1"));
        Files.copy(model.resolve("model.pt"), target.resolve("model.pt"));
        Files.writeString(repository.resolve(name).resolve("config.pbtxt"), config);
    }
}
