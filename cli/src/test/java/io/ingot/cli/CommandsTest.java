package io.ingot.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The commands against the real runtime core, over a repository of built-in-backend models. */
class CommandsTest
{
    private static final String ADD_SUB = """
        name: "add_sub" backend: "add_sub" max_batch_size: 8
        input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 4 ] },
                { name: "INPUT1" data_type: TYPE_FP32 dims: [ 4 ] } ]
        output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 4 ] },
                 { name: "OUTPUT1" data_type: TYPE_FP32 dims: [ 4 ] } ]
        dynamic_batching { preferred_batch_size: [ 4, 8 ] max_queue_delay_microseconds: 2000 }
        """;

    @TempDir
    Path repository;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeEach
    void writeRepository() throws IOException
    {
        model("add_sub", ADD_SUB);
        model("identity", """
            name: "identity" backend: "identity" max_batch_size: 8
            input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ -1 ] } ]
            output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ -1 ] } ]
            """);
        RecordingFrontend.EVENTS.clear();
    }

    private void model(final String name, final String config) throws IOException
    {
        Files.createDirectories(repository.resolve(name).resolve("1"));
        Files.writeString(repository.resolve(name).resolve("config.pbtxt"), config);
    }

    private int run(final String... args)
    {
        return IngotCli.run(args, CoreOpener.DEFAULT, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out()
    {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err()
    {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void validateListsEveryModelAndExitsZero()
    {
        assertEquals(0, run("models", "validate", repository.toString()), err());
        assertTrue(out().contains(
            "add_sub   1        add_sub           dynamic (max 8, preferred [4,8], delay 2000us)"), out());
        assertTrue(out().contains("identity  1        identity"), out());
        assertTrue(out().contains("2 model(s) valid"), out());
    }

    @Test
    void validateShowsAnAdaptiveModelsPolicyAndItsSlo() throws IOException
    {
        model("adaptive_add_sub", ADD_SUB.replace("name: \"add_sub\"", "name: \"adaptive_add_sub\"")
            + """
            parameters { key: "ingot.batching" value { string_value: "adaptive" } }
            parameters { key: "ingot.latency_slo_us" value { string_value: "25000" } }
            parameters { key: "ingot.slo_percentile" value { string_value: "95" } }
            """);
        assertEquals(0, run("models", "validate", repository.toString()), err());
        assertTrue(out().contains("adaptive (max 8, SLO 25000us at p95)"), out());
        assertTrue(out().contains("3 model(s) valid"), out());
        model("adaptive_add_sub", Files.readString(repository.resolve("adaptive_add_sub").resolve("config.pbtxt"))
            .replace("\"95\"", "\"100\""));
        assertEquals(1, run("models", "validate", repository.toString()));
        assertTrue(err().contains("parameter 'ingot.slo_percentile' must be a number between 0 and 100"), err());
    }

    @Test
    void validateNamesEveryBrokenModelAndExitsNonZero() throws IOException
    {
        model("typo", "name: \"typo\" backend: \"identity\" max_batch_size: -1");
        model("nobackend", """
            name: "nobackend" backend: "no_such_backend"
            input [ { name: "X" data_type: TYPE_FP32 dims: [ 1 ] } ]
            output [ { name: "Y" data_type: TYPE_FP32 dims: [ 1 ] } ]
            """);
        assertEquals(1, run("models", "validate", repository.toString()));
        // Triton's words (core src/backend_model.cc GetBackendRuntimeLibraryName) after the status code, as Triton's
        // load failure reads; Ingot's detail after them.
        assertTrue(err().contains("error: Invalid argument: unable to find backend library for backend"
            + " 'no_such_backend', try"
            + " specifying runtime on the model configuration. Ingot has no backend 'no_such_backend'"), err());
        assertTrue(err().contains("typo"), err());
        assertTrue(err().contains("2 of 4 model(s) failed validation"), err());
        assertTrue(out().contains("add_sub"), "the valid models are still listed: " + out());
    }

    @Test
    void validateWithAutoCompleteDisabledNeedsEveryConfigFile() throws IOException
    {
        Files.createDirectories(repository.resolve("bare.identity").resolve("1"));
        final String missing = "failed to open text file for read "
            + repository.toAbsolutePath().normalize().resolve("bare.identity").resolve("config.pbtxt")
            + ": No such file or directory";

        run("models", "validate", repository.toString());
        assertFalse(err().contains(missing), "auto-complete derives the backend from the name: " + err());

        err.reset();
        assertEquals(1, run("models", "validate", "--disable-auto-complete-config", repository.toString()));
        assertTrue(err().contains("error: " + missing), err());

        err.reset();
        assertEquals(1, run("models", "validate", "--strict-model-config=true", repository.toString()));
        assertTrue(err().contains("Warning: '--strict-model-config' has been deprecated!"), err());
        assertTrue(err().contains("error: " + missing), err());
        assertTrue(out().contains("add_sub"), "complete models stay valid in strict mode: " + out());
    }

    @Test
    void validateTakesTritonsSpellingsOfABoolean()
    {
        assertEquals(0, run("models", "validate", "--strict-model-config", "OFF", repository.toString()), err());
        assertEquals(0, run("models", "validate", "--strict-model-config=1", repository.toString()), err());
        assertEquals(2, run("models", "validate", "--strict-model-config=maybe", repository.toString()));
        assertTrue(err().contains("invalid value for bool option: maybe"), err());
    }

    @Test
    void validateWithLoadLoadsEveryModel()
    {
        assertEquals(0, run("models", "validate", "--load", repository.toString()), err());
        assertTrue(out().contains("READY"), out());
        assertTrue(out().contains("2 model(s) valid and loaded"), out());
    }

    @Test
    void inferPrintsTheOutputs()
    {
        assertEquals(0, run("infer", "--model-repository", repository.toString(), "-m", "add_sub",
            "--input", "INPUT0=1,2,3,4", "--input", "INPUT1=10,10,10,10", "-o", "OUTPUT1"), err());
        assertEquals("""
            OUTPUT1 FP32 [1,4]
              -9.0, -8.0, -7.0, -6.0
            """, out());
    }

    @Test
    void inferRejectsBadInputWithTheSpecificError()
    {
        assertEquals(2, run("infer", "--model-repository", repository.toString(), "-m", "add_sub",
            "--input", "INPUT0=1,2,3", "--input", "INPUT1=1,1,1,1"));
        assertTrue(err().contains("error: input 'INPUT0' of model 'add_sub' needs 4 values for shape [1,4], got 3"),
            err());
        assertEquals(2, run("infer", "--model-repository", repository.toString(), "-m", "identity",
            "--input", "INPUT0=1,x"));
        assertTrue(err().contains("error: input 'INPUT0': value 2 of 2 ('x') is not a valid FP32 value"), err());
        assertEquals(2, run("infer", "--model-repository", repository.toString(), "-m", "identity",
            "--input", "IN=1"));
        assertTrue(err().contains("error: model 'identity' has no input 'IN'"), err());
        assertEquals(2, run("infer", "--model-repository", repository.toString(), "-m", "missing",
            "--input", "IN=1"));
        assertTrue(err().contains("error: model 'missing' is not in"), err());
    }

    @Test
    void serveStopsAcceptingBeforeTheCoreClosesAndClosesTheFrontendsAfterwards() throws Exception
    {
        final ServeCommand serve = new ServeCommand(CoreOpener.DEFAULT,
            new PrintStream(out, true, StandardCharsets.UTF_8));
        final picocli.CommandLine command = new picocli.CommandLine(serve);
        final int[] exit = {-1};
        final Thread serving = Thread.ofPlatform().start(() -> exit[0] = command.execute("--model-repository",
            repository.toString(), "--http-port", "0", "--grpc-port", "0", "--metrics-port", "0", "--ipc", "ingot-test",
            "--frontend-setting", "a=b"));
        assertTrue(serve.awaitServing(60, TimeUnit.SECONDS), out());
        // Ports 0: every frontend on the class path (the recording one, and the real KServe one) binds ephemeral ports.
        assertEquals(List.of("start http=0 grpc=0 metrics=0 ipc=ingot-test settings={a=b}"),
            RecordingFrontend.EVENTS);
        assertTrue(out().contains("Started recording frontend on 127.0.0.1:0"), out());
        assertTrue(out().contains("Ingot is serving 2 model version(s)"), out());

        serve.stop();
        serving.join(TimeUnit.SECONDS.toMillis(60));
        assertEquals(0, exit[0]);
        // Stop accepting while the core runs; the core then answers what it holds; the frontends deliver and close.
        assertEquals(List.of("stop accepting live=true", "drained live=false", "close live=false"),
            RecordingFrontend.EVENTS.subList(1, 4));
        assertTrue(out().endsWith("Stopped.\n"), out());
    }

    @Test
    void addsContributedSubcommandsAndSkipsNameClashes()
    {
        assertEquals(7, run("hello", "ingot"));
        assertTrue(err().contains("warning: ignoring subcommand io.ingot.cli.ClashingSubcommand: the name 'serve' is"
            + " taken"), err());
        assertEquals(0, run("--help"));
        assertTrue(out().contains("hello"), out());
    }
}
