package io.ingot.cli;

import io.ingot.api.CoreOptions;
import io.ingot.api.RateLimitMode;
import io.ingot.api.RateLimitResource;
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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ingot serve --rate-limit} and {@code --rate-limit-resource} as Triton parses them (server
 * {@code src/command_line_parser.cc}): the modes, the resource syntax with and without a device, and Triton's
 * messages for what it refuses.
 */
class RateLimitFlagsTest
{
    @TempDir
    Path repository;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private CoreOptions coreOptions(final String... args)
    {
        final ServeCommand serve = new ServeCommand(CoreOpener.DEFAULT, new PrintStream(out, true,
            StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        final List<String> all = new ArrayList<>(List.of("--model-repository", repository.toString()));
        all.addAll(List.of(args));
        ServeCommand.commandLine(serve).parseArgs(all.toArray(String[]::new));
        return serve.coreOptions(serve.spec.commandLine().getParseResult(), List.of()).build();
    }

    private void assertRefused(final String message, final String... args)
    {
        final CliException refused = assertThrows(CliException.class, () -> coreOptions(args));
        assertEquals(CliException.USAGE, refused.exitCode());
        assertEquals(message, refused.getMessage());
    }

    @Test
    void theModeIsTritonsAndOffByDefault()
    {
        assertEquals(RateLimitMode.OFF, coreOptions().rateLimitMode());
        assertEquals(RateLimitMode.EXECUTION_COUNT, coreOptions("--rate-limit=execution_count").rateLimitMode());
        assertEquals(RateLimitMode.EXECUTION_COUNT, coreOptions("--rate-limit", "EXECUTION_COUNT").rateLimitMode());
        assertEquals(RateLimitMode.OFF, coreOptions("--rate-limit=Off").rateLimitMode());
        assertRefused("Bad option: \"--rate-limit\". invalid argument for --rate-limit", "--rate-limit=fair");
    }

    @Test
    void resourcesTakeANameACountAndAnOptionalDevice()
    {
        final CoreOptions options = coreOptions("--rate-limit=execution_count", "--rate-limit-resource=R1:4",
            "--rate-limit-resource", "Gpu_Mem:2:1");
        assertEquals(List.of(new RateLimitResource("R1", 4, RateLimitResource.EVERY_DEVICE),
            new RateLimitResource("Gpu_Mem", 2, 1)), options.rateLimitResources(),
            "the name is kept as written: Triton matches it against the configurations as given");
    }

    @Test
    void badResourcesGetTritonsMessages()
    {
        final String format = "Bad option: \"--rate-limit-resource\". --rate-limit-resource option format is "
            + "'<resource_name>:<count>:<device>' or '<resource_name>:<count>'. Got ";
        assertRefused(format + "R1", "--rate-limit-resource=R1");
        assertRefused(format + "R1:1:2:3", "--rate-limit-resource=R1:1:2:3");
        assertRefused("Bad option: \"--rate-limit-resource\". Invalid option value. Got four",
            "--rate-limit-resource=R1:four");
        assertRefused("Bad option: \"--rate-limit-resource\". Invalid option value. Got gpu0",
            "--rate-limit-resource=R1:4:gpu0");
        assertRefused("Bad option: \"--rate-limit-resource\". Provided option value is out of bound. Got 99999999999",
            "--rate-limit-resource=R1:99999999999");
        assertRefused("Bad option: \"--rate-limit-resource\". --rate-limit-resource count must be 0 or more. Got R1:-1",
            "--rate-limit-resource=R1:-1");
    }

    @Test
    void aCountBelowAModelsDemandStopsTheStartWithTritonsMessage() throws IOException
    {
        Files.createDirectories(repository.resolve("m").resolve("1"));
        Files.writeString(repository.resolve("m").resolve("config.pbtxt"), """
            name: "m" backend: "identity" max_batch_size: 8
            input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ -1 ] } ]
            output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ -1 ] } ]
            instance_group [ { kind: KIND_CPU count: 1
              rate_limiter { resources [ { name: "resource1" count: 4 } ] priority: 2 } } ]
            """);
        final int exit = IngotCli.run(new String[] {"serve", "--model-repository", repository.toString(),
            "--allow-http=false", "--allow-grpc=false", "--allow-metrics=false", "--rate-limit=execution_count",
            "--rate-limit-resource=resource1:3"}, CoreOpener.DEFAULT, new PrintStream(out, true,
            StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        final String printed = err.toString(StandardCharsets.UTF_8);
        assertEquals(CliException.FAILURE, exit, printed);
        assertTrue(printed.contains("Resource count for \"resource1\" is limited to 3 which will prevent scheduling "
            + "of one or more model instances, the minimum required count is 4"), printed);
    }
}
