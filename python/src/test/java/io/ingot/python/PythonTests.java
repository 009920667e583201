package io.ingot.python;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.api.ModelControlMode;
import io.ingot.config.proto.ModelConfig;
import io.ingot.tensor.DataType;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Assumptions;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the Python-backend tests share: the check for {@code /usr/bin/python3} with numpy (tests are skipped with the
 * reason printed where it is missing; CI installs python3-numpy), the test model repository
 * ({@code src/test/resources/models}), cores serving some of its models, and FP32 requests.
 */
final class PythonTests
{
    private static final String PYTHON = "/usr/bin/python3";
    private static String problem;
    private static boolean probed;

    private PythonTests()
    {
    }

    /**
     * Skips the calling test class, printing why, unless {@code /usr/bin/python3} can import numpy.
     *
     * @param testClass the test class, for the message
     */
    static void requirePython(final Class<?> testClass)
    {
        final String missing = pythonProblem();
        if (missing != null)
        {
            System.out.println(testClass.getSimpleName() + " skipped: " + missing);
            Assumptions.abort(missing);
        }
    }

    private static synchronized String pythonProblem()
    {
        if (!probed)
        {
            probed = true;
            problem = probe();
        }
        return problem;
    }

    private static String probe()
    {
        if (!Files.isExecutable(Path.of(PYTHON)))
        {
            return PYTHON + " does not exist (install python3 and python3-numpy)";
        }
        try
        {
            final Process probe = new ProcessBuilder(PYTHON, "-c", "import numpy").redirectErrorStream(true).start();
            if (!probe.waitFor(60, TimeUnit.SECONDS) || probe.exitValue() != 0)
            {
                return PYTHON + " cannot import numpy (install python3-numpy): "
                    + new String(probe.getInputStream().readAllBytes()).trim();
            }
            return null;
        }
        catch (final Exception ex)
        {
            return PYTHON + " cannot be run: " + ex;
        }
    }

    /** @return the example repository, {@code examples/models} (the surefire property {@code ingot.examples}). */
    static Path examples()
    {
        final Path root = Path.of(System.getProperty("ingot.examples", "../examples/models"));
        assertTrue(Files.isDirectory(root), "example repository " + root.toAbsolutePath() + " is missing");
        return root;
    }

    /**
     * Writes one model into a repository.
     *
     * @param repository the repository
     * @param name       the model's name
     * @param config     its config.pbtxt
     * @param modelPy    its 1/model.py, or {@code null} for none
     * @throws IOException when writing fails
     */
    static void writeModel(final Path repository, final String name, final String config, final String modelPy)
        throws IOException
    {
        final Path version = repository.resolve(name).resolve("1");
        Files.createDirectories(version);
        Files.writeString(repository.resolve(name).resolve("config.pbtxt"), config);
        if (modelPy != null)
        {
            Files.writeString(version.resolve("model.py"), modelPy);
        }
    }

    /**
     * @param repository a model repository
     * @param models     the models of it to load
     * @return options for a core serving those models (explicit model control), for a test to complete
     */
    static CoreOptions.Builder options(final Path repository, final String... models)
    {
        final CoreOptions.Builder builder = CoreOptions.builder().modelRepository(repository)
            .controlMode(ModelControlMode.EXPLICIT);
        for (final String model : models)
        {
            builder.startupModel(model);
        }
        return builder;
    }

    /**
     * @param repository a model repository
     * @param models     models of it
     * @return a core serving them, each checked to be ready
     */
    static InferenceCore open(final Path repository, final String... models)
    {
        final InferenceCore core = InferenceCore.open(options(repository, models).build());
        assertReady(core, models);
        return core;
    }

    /**
     * @param core   a core
     * @param models models it must serve
     */
    static void assertReady(final InferenceCore core, final String... models)
    {
        for (final String model : models)
        {
            assertTrue(core.isModelReady(model, -1), () -> model + " did not load: " + core.repositoryIndex(false));
        }
    }

    /** @param core a core a test class opened, or {@code null} when it was skipped before opening one */
    static void close(final InferenceCore core)
    {
        if (core != null)
        {
            core.close();
        }
    }

    /**
     * @param core  a core
     * @param model one of its models
     * @return why it failed to load ("" when it did not fail)
     */
    static String loadFailure(final InferenceCore core, final String model)
    {
        return core.repositoryIndex(false).stream().filter(entry -> entry.name().equals(model))
            .map(entry -> entry.reason()).findFirst().orElseThrow(() -> new AssertionError(model + " is unknown"));
    }

    /**
     * @return {@code add_sub_builtin}: Ingot's built-in add_sub backend with the shape of
     *     {@code examples/models/add_sub_python} (FP32 {@code [16]}, max_batch_size 8), what the Python models are
     *     checked against
     */
    static ModelConfig builtinAddSub()
    {
        return TestModels.config("name: 'add_sub_builtin' backend: 'add_sub' max_batch_size: 8"
            + " input [{ name: 'INPUT0' data_type: TYPE_FP32 dims: [16] },"
            + " { name: 'INPUT1' data_type: TYPE_FP32 dims: [16] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_FP32 dims: [16] },"
            + " { name: 'OUTPUT1' data_type: TYPE_FP32 dims: [16] }]");
    }

    /**
     * @param values the elements
     * @return off-heap memory holding them
     */
    static MemorySegment floats(final float... values)
    {
        final MemorySegment segment = Arena.ofAuto().allocate(4L * values.length, 4);
        MemorySegment.copy(values, 0, segment, ValueLayout.JAVA_FLOAT, 0, values.length);
        return segment;
    }

    /**
     * @param model  the model
     * @param shape  the inputs' shape
     * @param input0 INPUT0
     * @param input1 INPUT1
     * @return a request for an add_sub-like model
     */
    static InferenceRequest addSub(final String model, final long[] shape, final float[] input0,
        final float[] input1)
    {
        return new InferenceRequest(model).addInput("INPUT0", DataType.FP32, shape, floats(input0))
            .addInput("INPUT1", DataType.FP32, shape, floats(input1));
    }

    /**
     * @param response a response
     * @param output   one of its BYTES outputs
     * @return its first element, as UTF-8 text
     */
    static String firstString(final InferenceResponse response, final String output)
    {
        final MemorySegment data = response.output(output).data();
        final int length = data.get(ValueLayout.JAVA_INT_UNALIGNED, 0);
        return new String(data.asSlice(4, length).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
    }

    /**
     * @param response a response
     * @param output   one of its outputs
     * @return that output's elements
     */
    static float[] floatsOf(final InferenceResponse response, final String output)
    {
        return response.output(output).data().toArray(ValueLayout.JAVA_FLOAT);
    }
}
