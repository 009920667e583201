package io.ingot.core;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.ModelControlMode;
import io.ingot.api.ModelIndexEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The order of a model's checks at every way into the core, with configurations of this test's own: a broken
 * configuration in a model directory without any version directory reports its configuration error (Triton's text),
 * not the missing versions, whether the model loads at start-up, through the load API (EXPLICIT) or when a poll finds
 * it (POLL), and whether auto-complete is on or off; a valid configuration without versions reports Triton's
 * "at least one version" message. {@code LoadOrderTest} checks each step of the order itself.
 */
class CheckOrderEntryPointsTest
{
    /** A zero dimension: Triton's {@code ValidateIOShape} refuses it. */
    private static final String ZERO_DIMS = """
        backend: "identity"
        max_batch_size: 8
        input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 0 ] } ]
        output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
        """;

    private static final String ZERO_DIMS_ERROR = "model input 'INPUT0' dimension must be integer >= 1, or -1 to"
        + " indicate a variable-size dimension for zerodims";

    private static final String VALID = """
        backend: "identity"
        max_batch_size: 8
        input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
        output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
        """;

    private static final String NO_VERSION_ERROR = "at least one version must be available under the version policy"
        + " of model 'empty'";

    @TempDir
    Path repository;

    private void model(final String name, final String config) throws IOException
    {
        Files.createDirectories(repository.resolve(name));
        Files.writeString(repository.resolve(name).resolve("config.pbtxt"), config);
    }

    private static Optional<ModelIndexEntry> entry(final InferenceCore core, final String name)
    {
        return core.repositoryIndex(false).stream().filter(e -> e.name().equals(name)).findFirst();
    }

    @Test
    void atStartUpWithAndWithoutAutoComplete() throws Exception
    {
        model("zerodims", ZERO_DIMS);
        model("empty", VALID);
        for (final boolean autoComplete : new boolean[] {true, false})
        {
            try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(repository)
                .autoCompleteConfig(autoComplete).build()))
            {
                assertEquals(ZERO_DIMS_ERROR, entry(core, "zerodims").orElseThrow().reason(),
                    "auto-complete " + autoComplete);
                assertEquals(NO_VERSION_ERROR, entry(core, "empty").orElseThrow().reason());
            }
        }
    }

    @Test
    void throughTheLoadApi() throws Exception
    {
        model("zerodims", ZERO_DIMS);
        model("empty", VALID);
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(repository)
            .controlMode(ModelControlMode.EXPLICIT).build()))
        {
            final InferenceException broken = assertThrows(InferenceException.class, () -> core.loadModel("zerodims"));
            assertTrue(broken.getMessage().contains(ZERO_DIMS_ERROR), broken.getMessage());
            final InferenceException empty = assertThrows(InferenceException.class, () -> core.loadModel("empty"));
            assertTrue(empty.getMessage().contains(NO_VERSION_ERROR), empty.getMessage());
        }
    }

    @Test
    void whenAPollFindsTheModel(@TempDir final Path staging) throws Exception
    {
        model("witness", VALID);
        Files.createDirectories(repository.resolve("witness").resolve("1"));
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().modelRepository(repository)
            .controlMode(ModelControlMode.POLL).repositoryPollSeconds(1).build()))
        {
            assertTrue(core.isModelReady("witness", 1));
            // Written beside the repository and moved in whole, so that no poll sees half of it.
            Files.createDirectories(staging.resolve("zerodims"));
            Files.writeString(staging.resolve("zerodims").resolve("config.pbtxt"), ZERO_DIMS);
            Files.move(staging.resolve("zerodims"), repository.resolve("zerodims"));
            final long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            // The index lists the new directory at once (no state yet); the poll then records its failure.
            while (entry(core, "zerodims").map(ModelIndexEntry::reason).orElse("").isEmpty()
                && System.nanoTime() < deadline)
            {
                Thread.sleep(50);
            }
            assertEquals(ZERO_DIMS_ERROR, entry(core, "zerodims").orElseThrow(
                () -> new AssertionError("the poll did not report zerodims: " + core.repositoryIndex(false)))
                .reason());
        }
    }
}
