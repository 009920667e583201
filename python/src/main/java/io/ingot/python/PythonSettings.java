package io.ingot.python;

import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelParameter;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How a Python model's stubs run, from the model's {@code parameters} in {@code config.pbtxt}:
 *
 * <ul>
 *   <li>{@code EXECUTION_ENV_PATH} (Triton's name): another Python environment, an unpacked directory (its
 *       {@code bin/python3} runs the stub, its {@code bin} and {@code lib} go first on {@code PATH} and
 *       {@code LD_LIBRARY_PATH}) or the interpreter itself; {@code $$TRITON_MODEL_DIRECTORY} stands for the model's
 *       directory. Packed environments ({@code .tar.gz}) are refused: unpack them first. Default: the system property
 *       {@code ingot.python.executable}, else {@code /usr/bin/python3}.</li>
 *   <li>{@code INGOT_STUB_TIMEOUT_SECONDS} (default 30, as Triton's {@code stub-timeout-seconds}): how long a stub may
 *       take to start and to finalize, and how long its heartbeat may stall before it counts as unhealthy.</li>
 *   <li>{@code INGOT_EXECUTE_TIMEOUT_SECONDS} (default 0: none, as Triton): the longest {@code execute} call; a stub
 *       that overruns it is killed and restarted, and its batch fails.</li>
 *   <li>{@code INGOT_SHM_BYTES} (default 48 MiB): the data areas of each instance's shared memory, a third each for
 *       inputs, BLS outputs and the stub's outputs.</li>
 *   <li>{@code FORCE_CPU_ONLY_INPUT_TENSORS} (Triton's): accepted as {@code yes} or {@code no}; tensors are always in
 *       CPU memory here.</li>
 * </ul>
 *
 * @param model          the model's name
 * @param python         the interpreter that runs the stub
 * @param environment    variables added to the stub's environment
 * @param stubTimeout    start, finalize and heartbeat limit
 * @param executeTimeout the longest execute, {@link Duration#ZERO} for none
 * @param areaBytes      bytes of each data area
 */
record PythonSettings(String model, Path python, Map<String, String> environment, Duration stubTimeout,
    Duration executeTimeout, long areaBytes)
{
    /** Triton's parameter naming another Python environment. */
    static final String EXECUTION_ENV_PATH = "EXECUTION_ENV_PATH";
    /** Start, finalize and heartbeat limit in seconds. */
    static final String STUB_TIMEOUT = "INGOT_STUB_TIMEOUT_SECONDS";
    /** Execute limit in seconds. */
    static final String EXECUTE_TIMEOUT = "INGOT_EXECUTE_TIMEOUT_SECONDS";
    /** Bytes of shared memory per instance. */
    static final String SHM_BYTES = "INGOT_SHM_BYTES";
    /** Triton's parameter on GPU input tensors. */
    static final String FORCE_CPU_ONLY_INPUT_TENSORS = "FORCE_CPU_ONLY_INPUT_TENSORS";
    /** System property naming the default interpreter. */
    static final String PYTHON_PROPERTY = "ingot.python.executable";

    private static final String DEFAULT_PYTHON = "/usr/bin/python3";
    private static final long DEFAULT_SHM_BYTES = 48L << 20;
    private static final long MIN_SHM_BYTES = 3L << 16;

    /**
     * @param config         the model's configuration
     * @param modelDirectory the model's directory (for {@code $$TRITON_MODEL_DIRECTORY}), or {@code null}
     * @return the settings
     * @throws IllegalArgumentException naming the model, the parameter and what was expected
     */
    static PythonSettings of(final ModelConfig config, final Path modelDirectory)
    {
        final String model = config.getName();
        final Map<String, ModelParameter> parameters = config.getParametersMap();
        final Map<String, String> environment = new LinkedHashMap<>();
        Path python = Path.of(System.getProperty(PYTHON_PROPERTY, DEFAULT_PYTHON));
        final String envPath = string(parameters, EXECUTION_ENV_PATH);
        if (envPath != null && !envPath.isBlank())
        {
            python = environment(model, envPath, modelDirectory, environment);
        }
        if (!Files.isExecutable(python))
        {
            throw new IllegalArgumentException("python model '" + model + "': the Python interpreter " + python
                + " does not exist or is not executable (install python3 and python3-numpy, or name another with the "
                + "parameter " + EXECUTION_ENV_PATH + ")");
        }
        final String cpuOnly = string(parameters, FORCE_CPU_ONLY_INPUT_TENSORS);
        if (cpuOnly != null && !cpuOnly.equals("yes") && !cpuOnly.equals("no"))
        {
            throw new IllegalArgumentException("python model '" + model + "': Incorrect value for "
                + FORCE_CPU_ONLY_INPUT_TENSORS + ": '" + cpuOnly + "' (expected 'yes' or 'no')");
        }
        final long stubSeconds = number(model, parameters, STUB_TIMEOUT, 30, 1);
        final long executeSeconds = number(model, parameters, EXECUTE_TIMEOUT, 0, 0);
        final long shmBytes = number(model, parameters, SHM_BYTES, DEFAULT_SHM_BYTES, MIN_SHM_BYTES);
        return new PythonSettings(model, python, Map.copyOf(environment), Duration.ofSeconds(stubSeconds),
            Duration.ofSeconds(executeSeconds), shmBytes / 3);
    }

    private static Path environment(final String model, final String value, final Path modelDirectory,
        final Map<String, String> environment)
    {
        final String expanded = modelDirectory == null ? value
            : value.replace("$$TRITON_MODEL_DIRECTORY", modelDirectory.toString());
        final Path path = Path.of(expanded);
        if (expanded.endsWith(".tar.gz") || expanded.endsWith(".tgz"))
        {
            throw new IllegalArgumentException("python model '" + model + "': " + EXECUTION_ENV_PATH + " " + path
                + " is a packed environment, which Ingot does not unpack; unpack it (tar -xzf) and name the "
                + "directory");
        }
        if (!Files.isDirectory(path))
        {
            return path;
        }
        final Path bin = path.resolve("bin");
        environment.put("PATH", bin + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        final String libraries = System.getenv("LD_LIBRARY_PATH");
        environment.put("LD_LIBRARY_PATH", path.resolve("lib") + (libraries == null ? "" : ":" + libraries));
        environment.put("VIRTUAL_ENV", path.toString());
        return bin.resolve("python3");
    }

    private static String string(final Map<String, ModelParameter> parameters, final String key)
    {
        final ModelParameter parameter = parameters.get(key);
        return parameter == null ? null : parameter.getStringValue().trim();
    }

    private static long number(final String model, final Map<String, ModelParameter> parameters, final String key,
        final long defaultValue, final long minimum)
    {
        final String text = string(parameters, key);
        if (text == null || text.isEmpty())
        {
            return defaultValue;
        }
        final long value;
        try
        {
            value = Long.parseLong(text);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("python model '" + model + "': parameter " + key + " must be a whole "
                + "number, got '" + text + "'");
        }
        if (value < minimum)
        {
            throw new IllegalArgumentException("python model '" + model + "': parameter " + key + " must be at least "
                + minimum + ", got " + value);
        }
        return value;
    }
}
