package io.ingot.api;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a load request may replace of a model, as Triton's model-repository extension allows
 * ({@code POST /v2/repository/models/<m>/load} with {@code parameters}): the configuration and the model's files.
 *
 * <p>A {@code config} replaces the model's {@code config.pbtxt} wholesale (auto-complete then fills the gaps, and a
 * name it gives must equal the model name); without {@code files} the model's version directories still come from
 * the repository. {@code files} make the model directory itself an override: the model loads from a private
 * temporary directory that holds only those files and the configuration (so {@code config} is then required), and
 * the repository's directory of that name, if any, is not used. The directory is deleted when the model is unloaded
 * or replaced, or the core closes.
 *
 * <p>Immutable, except that the byte arrays are held by reference: the caller must not change them until
 * {@link InferenceCore#loadModel(String, ModelLoadOverrides)} returns.
 *
 * @param config the model configuration as JSON (Triton's {@code config} parameter), or {@code null} for none
 * @param files  file contents by path relative to the model directory ({@code "1/model.onnx"}: Triton's
 *               {@code file:1/model.onnx} parameter without its {@code file:} prefix); copied
 */
public record ModelLoadOverrides(String config, Map<String, byte[]> files)
{
    /** No override: load the model from its repository. */
    public static final ModelLoadOverrides NONE = new ModelLoadOverrides(null, Map.of());

    /**
     * Copies the file map.
     *
     * @throws NullPointerException for a {@code null} map, path or content
     */
    public ModelLoadOverrides
    {
        files = Map.copyOf(files);
    }

    /**
     * @param json the model configuration as JSON
     * @return overrides that replace only the configuration
     */
    public static ModelLoadOverrides config(final String json)
    {
        return new ModelLoadOverrides(Objects.requireNonNull(json, "json"), Map.of());
    }

    /**
     * @param path    a path relative to the model directory
     * @param content the file's bytes
     * @return a copy of these overrides with that file added (or replaced)
     */
    public ModelLoadOverrides withFile(final String path, final byte[] content)
    {
        final Map<String, byte[]> more = new LinkedHashMap<>(files);
        more.put(path, content);
        return new ModelLoadOverrides(config, more);
    }

    /** @return true when nothing is overridden */
    public boolean isEmpty()
    {
        return config == null && files.isEmpty();
    }

    /** @return the bytes these overrides would write: every file's content and the configuration's UTF-8 text */
    public long byteSize()
    {
        long total = config == null ? 0 : config.getBytes(StandardCharsets.UTF_8).length;
        for (final byte[] content : files.values())
        {
            total += content.length;
        }
        return total;
    }
}
