package io.ingot.server.flow;

import io.ingot.api.CoreOptions;
import io.ingot.server.testing.ServingFixture;
import io.ingot.testing.ChildProcess;
import io.ingot.testing.TestModels;
import io.ingot.testing.TritonSources;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Triton's own Python client ({@code tritonclient.grpc}, from Triton's client repository) cancels sequences on an
 * Ingot server as Triton's {@code qa/L0_request_cancellation/scheduler_test.py} does on Triton
 * ({@code src/test/resources/tritonclient/sequence_cancellation.py}). Triton's sources are found through
 * {@code INGOT_TRITON_SOURCES} (default: the project's {@code ../triton-sources}), whose {@code py/} holds the client
 * library; without them, or without {@code python3} with numpy and grpcio, the test is skipped with the reason.
 * {@link SequenceCancellationTest} asserts the same behaviour without them.
 */
class TritonClientCancellationTest
{
    private static Path tritonClientLibrary()
    {
        return TritonSources.find().orElse(TritonSources.projectRoot().resolveSibling("triton-sources")).resolve("py");
    }

    @Test
    void tritonsClientCancelsQueuedAndBackloggedSequencesAndStreams() throws Exception
    {
        final Path library = tritonClientLibrary();
        // Debian's interpreter, where python3-grpcio and python3-numpy are installed, before whatever is on the PATH.
        final String python = Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3"
            : ChildProcess.python3();
        final String missing = !Files.isDirectory(library.resolve("tritonclient"))
            ? "Triton's client library is not at " + library + " (set INGOT_TRITON_SOURCES)"
            : python == null ? "no python3" : null;
        if (missing != null)
        {
            System.out.println("TritonClientCancellationTest skipped: " + missing);
            Assumptions.abort(missing);
        }
        final Path script = Path.of(getClass().getResource("/tritonclient/sequence_cancellation.py").toURI());
        try (ServingFixture server = new ServingFixture(CoreOptions.builder()
                .model(TestModels.config(SequenceCancellationTest.sequenceModel("sequence_direct", "direct { }")))
                .model(TestModels.config(SequenceCancellationTest.sequenceModel("sequence_oldest",
                    "oldest { max_candidate_sequences: 1 }")))
                .build(), UnaryOperator.identity());
             ChildProcess probe = ChildProcess.start(List.of("/usr/bin/env", "PYTHONPATH=" + library, python, "-P",
                 "-c", "import numpy, grpc, tritonclient.grpc")))
        {
            if (probe.awaitExit(120) != 0)
            {
                final String reason = "python3 cannot import numpy, grpcio and tritonclient.grpc: " + probe.output();
                System.out.println("TritonClientCancellationTest skipped: " + reason);
                Assumptions.abort(reason);
            }
            try (ChildProcess client = ChildProcess.start(List.of("/usr/bin/env", "PYTHONPATH=" + library, python,
                "-P", script.toString(), Integer.toString(server.frontends().grpcPort()),
                Integer.toString(server.frontends().metricsPort()))))
            {
                assertEquals(0, client.awaitExit(240), client.output());
                assertTrue(client.output().contains("ALL PASSED"), client.output());
            }
        }
    }
}
