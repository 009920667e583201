package io.ingot.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@code ingot models validate} and {@code ingot serve} print for a repository whose models have no version
 * directory, with configurations of this test's own: a broken configuration reports its configuration error in
 * Triton's words, in every mode (auto-complete on and off, {@code --load}), before the missing versions, which a
 * valid configuration reports instead; a check of the backend's part reads as Triton's load failure, status code
 * first.
 */
class CheckOrderCommandsTest
{
    private static final String ZERO_DIMS_ERROR = "model input 'INPUT0' dimension must be integer >= 1, or -1 to"
        + " indicate a variable-size dimension for zerodims";

    private static final String NO_VERSION_ERROR = "at least one version must be available under the version policy"
        + " of model 'empty'";

    @TempDir
    Path repository;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private void model(final String name, final String config, final String... versions) throws IOException
    {
        Files.createDirectories(repository.resolve(name));
        Files.writeString(repository.resolve(name).resolve("config.pbtxt"), "name: \"" + name + "\"\n" + config);
        for (final String version : versions)
        {
            Files.createDirectories(repository.resolve(name).resolve(version));
        }
    }

    private int run(final String... args)
    {
        out.reset();
        err.reset();
        return IngotCli.run(args, CoreOpener.DEFAULT, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String err()
    {
        return err.toString(StandardCharsets.UTF_8);
    }

    private void brokenAndEmpty() throws IOException
    {
        model("zerodims", """
            backend: "identity"
            max_batch_size: 8
            input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 0 ] } ]
            output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
            """);
        model("empty", """
            backend: "identity"
            max_batch_size: 8
            input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
            output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
            """);
    }

    @Test
    void validateReportsTheConfigurationErrorBeforeTheMissingVersionsInEveryMode() throws IOException
    {
        brokenAndEmpty();
        for (final List<String> flags : List.of(List.<String>of(), List.of("--load"),
            List.of("--disable-auto-complete-config"), List.of("--strict-model-config=false", "--load")))
        {
            final List<String> args = new ArrayList<>(List.of("models", "validate"));
            args.addAll(flags);
            args.add(repository.toString());
            assertEquals(CliException.FAILURE, run(args.toArray(String[]::new)), err());
            assertTrue(err().contains("error: " + ZERO_DIMS_ERROR), flags + ": " + err());
            assertTrue(err().contains("error: " + NO_VERSION_ERROR), flags + ": " + err());
            assertFalse(err().contains("version policy of model 'zerodims'"), flags + ": " + err());
        }
    }

    @Test
    void serveStopsWithTheConfigurationError() throws IOException
    {
        brokenAndEmpty();
        assertEquals(CliException.FAILURE, run("serve", "--model-repository", repository.toString(),
            "--allow-http=false", "--allow-grpc=false", "--allow-metrics=false"), err());
        assertTrue(err().contains(ZERO_DIMS_ERROR), err());
        assertFalse(err().contains("version policy of model 'zerodims'"), err());
    }

    @Test
    void theBackendsPartReadsAsTritonsLoadFailure() throws IOException
    {
        model("nobackend", """
            backend: "no_such_backend"
            input [ { name: "X" data_type: TYPE_FP32 dims: [ 1 ] } ]
            output [ { name: "Y" data_type: TYPE_FP32 dims: [ 1 ] } ]
            """, "1");
        model("cpugpus", """
            backend: "identity"
            input [ { name: "X" data_type: TYPE_FP32 dims: [ 1 ] } ]
            output [ { name: "X_OUT" data_type: TYPE_FP32 dims: [ 1 ] } ]
            instance_group [ { kind: KIND_CPU gpus: [ 0 ] } ]
            """, "1");
        assertEquals(CliException.FAILURE, run("models", "validate", repository.toString()), err());
        // Triton: "failed to load 'nobackend' version 1: Invalid argument: unable to find backend library ...".
        assertTrue(err().contains("error: Invalid argument: unable to find backend library for backend"
            + " 'no_such_backend', try specifying runtime on the model configuration."), err());
        assertTrue(err().contains("error: Invalid argument: instance group cpugpus_0 of model cpugpus has kind"
            + " KIND_CPU but specifies one or more GPUs"), err());
    }
}
