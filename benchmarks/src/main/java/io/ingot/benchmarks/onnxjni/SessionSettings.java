package io.ingot.benchmarks.onnxjni;

import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession.SessionOptions;
import ai.onnxruntime.OrtSession.SessionOptions.ExecutionMode;
import ai.onnxruntime.OrtSession.SessionOptions.OptLevel;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelParameter;

import java.util.Locale;

/**
 * ONNX Runtime session options of one model, read from its configuration with the names Triton's ONNX Runtime
 * backend uses:
 * <ul>
 *   <li>{@code parameters { key: "intra_op_thread_count" value { string_value: "N" } }}: threads inside one operator
 *       ({@code 0}: ONNX Runtime's default, one per physical core);</li>
 *   <li>{@code inter_op_thread_count}: threads across operators, used with {@code execution_mode} 1;</li>
 *   <li>{@code execution_mode}: {@code 0} sequential (default), {@code 1} parallel;</li>
 *   <li>{@code enable_mem_arena}, {@code enable_mem_pattern}: ONNX Runtime's CPU arena and memory pattern
 *       ({@code true/false}, {@code 1/0}, {@code yes/no}, {@code on/off});</li>
 *   <li>{@code share_session_between_instances}: one session for all instances of the model, or one each;</li>
 *   <li>{@code optimization { graph { level: L } }}: {@code -1} basic, {@code 1} extended, {@code 2} none, anything
 *       else (including unset) all optimizations, exactly as Triton maps it.</li>
 * </ul>
 *
 * @param intraOpThreads      intra-op threads, {@code 0} for ONNX Runtime's default
 * @param interOpThreads      inter-op threads, {@code 0} for ONNX Runtime's default
 * @param parallelExecution   true for {@code ORT_PARALLEL}
 * @param optimization        graph optimization level
 * @param memoryArena         CPU memory arena on/off, {@code null} for ONNX Runtime's default
 * @param memoryPattern       memory pattern on/off, {@code null} for ONNX Runtime's default
 * @param shareSession        one session for every instance of the model
 */
record SessionSettings(int intraOpThreads, int interOpThreads, boolean parallelExecution, OptLevel optimization,
    Boolean memoryArena, Boolean memoryPattern, boolean shareSession)
{
    /** Parameter: threads inside one operator. */
    static final String INTRA_OP_THREAD_COUNT = "intra_op_thread_count";
    /** Parameter: threads across operators. */
    static final String INTER_OP_THREAD_COUNT = "inter_op_thread_count";
    /** Parameter: 0 sequential, 1 parallel. */
    static final String EXECUTION_MODE = "execution_mode";
    /** Parameter: CPU memory arena. */
    static final String ENABLE_MEM_ARENA = "enable_mem_arena";
    /** Parameter: memory pattern optimization. */
    static final String ENABLE_MEM_PATTERN = "enable_mem_pattern";
    /** Parameter: one session shared by the model's instances. */
    static final String SHARE_SESSION = "share_session_between_instances";

    /**
     * Whether instances share one session unless the configuration says otherwise. Measured on a 2-core machine
     * (onnx/README.md, "Shared or per-instance sessions"): see there for the numbers and the reasoning.
     */
    static final boolean DEFAULT_SHARE_SESSION = true;

    /**
     * Reads the settings of a model.
     *
     * @param config the model's configuration
     * @return its settings
     * @throws IllegalArgumentException naming the model, the parameter and the accepted values when one is invalid
     */
    static SessionSettings from(final ModelConfig config)
    {
        final String model = config.getName();
        final int intra = nonNegative(config, model, INTRA_OP_THREAD_COUNT);
        final int inter = nonNegative(config, model, INTER_OP_THREAD_COUNT);
        final int mode = nonNegative(config, model, EXECUTION_MODE);
        if (mode > 1)
        {
            throw new IllegalArgumentException("model '" + model + "': parameter '" + EXECUTION_MODE
                + "' must be 0 (sequential) or 1 (parallel), was '" + mode + "'");
        }
        final OptLevel level = switch (config.getOptimization().getGraph().getLevel())
        {
            case -1 -> OptLevel.BASIC_OPT;
            case 1 -> OptLevel.EXTENDED_OPT;
            case 2 -> OptLevel.NO_OPT;
            default -> OptLevel.ALL_OPT;
        };
        final Boolean share = bool(config, model, SHARE_SESSION);
        return new SessionSettings(intra, inter, mode == 1, level, bool(config, model, ENABLE_MEM_ARENA),
            bool(config, model, ENABLE_MEM_PATTERN), share == null ? DEFAULT_SHARE_SESSION : share);
    }

    /**
     * Creates ONNX Runtime options with these settings. The caller closes them after every session created from
     * them is closed.
     *
     * @return new session options
     * @throws OrtException when ONNX Runtime rejects a setting
     */
    SessionOptions createOptions() throws OrtException
    {
        final SessionOptions options = new SessionOptions();
        try
        {
            options.setOptimizationLevel(optimization);
            options.setExecutionMode(parallelExecution ? ExecutionMode.PARALLEL : ExecutionMode.SEQUENTIAL);
            if (intraOpThreads > 0)
            {
                options.setIntraOpNumThreads(intraOpThreads);
            }
            if (interOpThreads > 0)
            {
                options.setInterOpNumThreads(interOpThreads);
            }
            if (memoryArena != null)
            {
                options.setCPUArenaAllocator(memoryArena);
            }
            if (memoryPattern != null)
            {
                options.setMemoryPatternOptimization(memoryPattern);
            }
            return options;
        }
        catch (final OrtException | RuntimeException e)
        {
            options.close();
            throw e;
        }
    }

    /** @return a one-line summary for logs. */
    String describe()
    {
        return "intra_op_thread_count=" + (intraOpThreads == 0 ? "default" : intraOpThreads)
            + ", execution_mode=" + (parallelExecution ? "parallel" : "sequential")
            + ", graph optimization=" + optimization
            + ", sessions=" + (shareSession ? "one shared by all instances" : "one per instance");
    }

    private static int nonNegative(final ModelConfig config, final String model, final String key)
    {
        final String text = text(config, key);
        if (text == null)
        {
            return 0;
        }
        try
        {
            final int value = Integer.parseInt(text);
            if (value >= 0)
            {
                return value;
            }
        }
        catch (final NumberFormatException ignored)
        {
            // reported below
        }
        throw new IllegalArgumentException("model '" + model + "': parameter '" + key
            + "' must be a non-negative integer, was '" + text + "'");
    }

    private static Boolean bool(final ModelConfig config, final String model, final String key)
    {
        final String text = text(config, key);
        if (text == null)
        {
            return null;
        }
        return switch (text.toLowerCase(Locale.ROOT))
        {
            case "true", "1", "yes", "on" -> Boolean.TRUE;
            case "false", "0", "no", "off" -> Boolean.FALSE;
            default -> throw new IllegalArgumentException("model '" + model + "': parameter '" + key
                + "' must be true or false (or 1/0, yes/no, on/off), was '" + text + "'");
        };
    }

    private static String text(final ModelConfig config, final String key)
    {
        final ModelParameter parameter = config.getParametersMap().get(key);
        if (parameter == null)
        {
            return null;
        }
        final String value = parameter.getStringValue().trim();
        return value.isEmpty() ? null : value;
    }
}
