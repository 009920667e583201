package io.ingot.tensorflow;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelParameter;
import io.ingot.tensorflow.proto.ConfigProto;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The TensorFlow settings of one model, read from its configuration's {@code parameters} with the names and rules
 * of Triton's TensorFlow backend ({@code ModelState::ParseParameters}):
 * <ul>
 *   <li>{@value #INTRA_THREADS}: threads inside one op, {@code >= 0} ({@code 0}: TensorFlow picks);</li>
 *   <li>{@value #INTER_THREADS}: ops run at once ({@code 0}: TensorFlow picks; negative: run ops on the caller's
 *       thread, as TensorFlow defines it);</li>
 *   <li>{@value #PER_SESSION_THREADS}: a thread pool per session rather than the process's
 *       ({@code true/on/1}, {@code false/off/0});</li>
 *   <li>{@value #GRAPH_TAG}: the MetaGraphDef to load (default {@code serve});</li>
 *   <li>{@value #SIGNATURE_DEF}: the signature to serve (default {@code serving_default});</li>
 *   <li>{@value #MAX_SESSION_SHARE_COUNT}: positive; Triton lets that many instances share a session. Ingot reads it
 *       but keeps one session per instance, because TensorFlow's C API does not document {@code TF_SessionRun} as
 *       safe to call concurrently on one session ({@link #sharingNote()});</li>
 *   <li>{@value #INIT_OPS_FILE}: a JSON file {@code {"init_ops": ["op", ...]}}, looked up in the version folder then
 *       the model folder, whose ops are run once on every new session.</li>
 * </ul>
 *
 * @param intraThreads      {@code intra_op_parallelism_threads}
 * @param interThreads      {@code inter_op_parallelism_threads}
 * @param perSessionThreads {@code use_per_session_threads}
 * @param graphTag          the tag, empty for the default
 * @param signatureDef      the signature key, empty for the default
 * @param maxSessionShare   {@code MAX_SESSION_SHARE_COUNT}
 * @param initOpsFile       the init-ops file name, empty for none
 */
record SessionSettings(int intraThreads, int interThreads, boolean perSessionThreads, String graphTag,
    String signatureDef, int maxSessionShare, String initOpsFile)
{
    /** Parameter: intra-op threads. */
    static final String INTRA_THREADS = "TF_NUM_INTRA_THREADS";
    /** Parameter: inter-op threads. */
    static final String INTER_THREADS = "TF_NUM_INTER_THREADS";
    /** Parameter: a thread pool per session. */
    static final String PER_SESSION_THREADS = "TF_USE_PER_SESSION_THREADS";
    /** Parameter: the MetaGraphDef tag. */
    static final String GRAPH_TAG = "TF_GRAPH_TAG";
    /** Parameter: the signature key. */
    static final String SIGNATURE_DEF = "TF_SIGNATURE_DEF";
    /** Parameter: how many instances may share a session (Triton). */
    static final String MAX_SESSION_SHARE_COUNT = "MAX_SESSION_SHARE_COUNT";
    /** Parameter: the init-ops JSON file. */
    static final String INIT_OPS_FILE = "TF_INIT_OPS_FILE";

    /**
     * @param config the model's configuration (its name set)
     * @return its settings
     * @throws IllegalArgumentException naming the model and the parameter when a value is invalid
     */
    static SessionSettings from(final ModelConfig config)
    {
        final String model = config.getName();
        final int share = integer(config, MAX_SESSION_SHARE_COUNT, 1);
        if (share <= 0)
        {
            throw new IllegalArgumentException("parameter '" + MAX_SESSION_SHARE_COUNT + "' must be positive number"
                + " for TensorFlow model '" + model + "'");
        }
        final int intra = integer(config, INTRA_THREADS, 0);
        if (intra < 0)
        {
            throw new IllegalArgumentException("parameter '" + INTRA_THREADS + "' must be non-negative number for"
                + " TensorFlow model '" + model + "'");
        }
        return new SessionSettings(intra, integer(config, INTER_THREADS, 0), bool(config, PER_SESSION_THREADS),
            text(config, GRAPH_TAG), text(config, SIGNATURE_DEF), share, text(config, INIT_OPS_FILE));
    }

    private static String text(final ModelConfig config, final String key)
    {
        final ModelParameter parameter = config.getParametersMap().get(key);
        return parameter == null ? "" : parameter.getStringValue().trim();
    }

    private static int integer(final ModelConfig config, final String key, final int absent)
    {
        final String value = text(config, key);
        if (value.isEmpty())
        {
            return absent;
        }
        try
        {
            return Integer.parseInt(value);
        }
        catch (final NumberFormatException e)
        {
            throw new IllegalArgumentException("model '" + config.getName() + "': parameter '" + key + "' must be an"
                + " integer, was '" + value + "'");
        }
    }

    private static boolean bool(final ModelConfig config, final String key)
    {
        final String value = text(config, key).toLowerCase(Locale.ROOT);
        return switch (value)
        {
            case "", "false", "off", "0" -> false;
            case "true", "on", "1" -> true;
            default -> throw new IllegalArgumentException("model '" + config.getName() + "': parameter '" + key
                + "' must be true, on, 1, false, off or 0, was '" + value + "'");
        };
    }

    /** @return the session's serialized {@code tensorflow.ConfigProto} */
    byte[] configProto()
    {
        return ConfigProto.newBuilder()
            .setIntraOpParallelismThreads(intraThreads)
            .setInterOpParallelismThreads(interThreads)
            .setUsePerSessionThreads(perSessionThreads)
            .build().toByteArray();
    }

    /**
     * @return why {@value #MAX_SESSION_SHARE_COUNT} above 1 is not followed, or {@code null} when it is 1
     */
    String sharingNote()
    {
        return maxSessionShare > 1 ? "parameter '" + MAX_SESSION_SHARE_COUNT + "' is " + maxSessionShare + ", but"
            + " Ingot opens one TensorFlow session per instance: TensorFlow's C API does not document TF_SessionRun"
            + " as safe to call concurrently on one session" : null;
    }

    /**
     * Reads the init ops of {@value #INIT_OPS_FILE}.
     *
     * @param model            the model, for messages
     * @param versionDirectory the version folder (looked in first)
     * @return the op names, empty when no file is configured
     * @throws IllegalArgumentException when the file is missing or not {@code {"init_ops": [strings]}}
     */
    List<String> initOps(final String model, final Path versionDirectory)
    {
        if (initOpsFile.isEmpty())
        {
            return List.of();
        }
        Path file = versionDirectory.resolve(initOpsFile);
        if (!Files.isRegularFile(file) && versionDirectory.getParent() != null)
        {
            file = versionDirectory.getParent().resolve(initOpsFile);
        }
        try
        {
            final JsonElement root = JsonParser.parseString(Files.readString(file, StandardCharsets.UTF_8));
            final JsonElement ops = root.isJsonObject() ? ((JsonObject) root).get("init_ops") : null;
            if (ops == null || !ops.isJsonArray())
            {
                throw new IllegalArgumentException("model '" + model + "': " + file + " must be a JSON object with an"
                    + " array 'init_ops'");
            }
            final List<String> names = new ArrayList<>();
            for (final JsonElement op : (JsonArray) ops)
            {
                if (!op.isJsonPrimitive() || !op.getAsJsonPrimitive().isString())
                {
                    throw new IllegalArgumentException("model '" + model + "': " + file + ": 'init_ops' must hold"
                        + " operation names (strings), found " + op);
                }
                names.add(op.getAsString());
            }
            return names;
        }
        catch (final IOException | JsonParseException e)
        {
            throw new IllegalArgumentException("model '" + model + "': parameter '" + INIT_OPS_FILE + "' names '"
                + initOpsFile + "', which cannot be read from " + file + ": " + e.getMessage(), e);
        }
    }

    /** @return the settings in one line, for logs */
    String describe()
    {
        return INTRA_THREADS + "=" + intraThreads + ", " + INTER_THREADS + "=" + interThreads + ", "
            + PER_SESSION_THREADS + "=" + perSessionThreads + ", tag '" + (graphTag.isEmpty() ? "serve" : graphTag)
            + "', signature '" + (signatureDef.isEmpty() ? "serving_default" : signatureDef) + "'";
    }
}
