package io.ingot.cli;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.ModelControlMode;
import io.ingot.server.FrontendOptions;
import io.ingot.server.ServerFrontends;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Python models of {@code examples/models}, served as {@code ingot serve} serves them (every bundled backend on
 * the class path, the KServe HTTP frontend), checked over HTTP the way Triton's Python HTTP client sends requests:
 * {@code classify_image} (Python pre/post-processing around the ONNX resnet50, through BLS) against the same
 * pipeline computed by the client, and {@code add_sub_python} with the seed flow. Skipped, with the reason printed,
 * where {@code /usr/bin/python3} cannot import numpy.
 */
class PythonExampleTest
{
    private static final Path ROOT = Path.of(System.getProperty("basedir", System.getProperty("user.dir")))
        .toAbsolutePath().getParent();
    private static final String PYTHON = "/usr/bin/python3";
    private static InferenceCore core;
    private static ServerFrontends frontends;

    @BeforeAll
    static void serve() throws Exception
    {
        final Process probe = Files.isExecutable(Path.of(PYTHON))
            ? new ProcessBuilder(PYTHON, "-c", "import numpy").redirectErrorStream(true).start() : null;
        if (probe == null || !probe.waitFor(60, TimeUnit.SECONDS) || probe.exitValue() != 0)
        {
            final String reason = PYTHON + " with numpy is missing (install python3-numpy)";
            System.out.println("PythonExampleTest skipped: " + reason);
            Assumptions.abort(reason);
        }
        core = InferenceCore.open(CoreOptions.builder().modelRepository(ROOT.resolve("examples/models"))
            .controlMode(ModelControlMode.EXPLICIT).startupModel("classify_image").startupModel("resnet50")
            .startupModel("add_sub_python").build());
        for (final String model : new String[] {"classify_image", "resnet50", "add_sub_python"})
        {
            assertTrue(core.isModelReady(model, -1), () -> model + " did not load: " + core.repositoryIndex(false));
        }
        frontends = ServerFrontends.start(core, FrontendOptions.defaults().withPorts(0, 0, 0));
    }

    @AfterAll
    static void stop()
    {
        if (frontends != null)
        {
            frontends.close();
        }
        if (core != null)
        {
            core.close();
        }
    }

    @Test
    void classifyImageAnswersAsThePipelineDoneByTheClient() throws Exception
    {
        final String output = run("classify_image_http.py");
        assertTrue(output.contains("4 images classified correctly; an empty image refused"), output);
    }

    @Test
    void addSubPythonAnswersTheSeedFlowAndBatches() throws Exception
    {
        final String output = run("seed_flow_http.py", "add_sub_python");
        assertTrue(output.contains("10 requests answered correctly"), output);
    }

    private static String run(final String script, final String... arguments) throws Exception
    {
        final String[] command = new String[arguments.length + 3];
        command[0] = PYTHON;
        command[1] = ROOT.resolve("clients/python").resolve(script).toString();
        command[2] = "http://127.0.0.1:" + frontends.httpPort();
        System.arraycopy(arguments, 0, command, 3, arguments.length);
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final boolean finished = process.waitFor(240, TimeUnit.SECONDS);
        if (!finished)
        {
            process.destroyForcibly();
        }
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(finished, script + " did not finish: " + output);
        assertEquals(0, process.exitValue(), output);
        return output;
    }
}
