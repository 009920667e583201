package io.ingot.config;

import io.ingot.config.proto.ModelConfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Triton's server-side auto-complete ({@code AutoCompleteBackendFields}): fills {@code name}, {@code platform},
 * {@code backend} and {@code default_model_filename} from each other and, when they say nothing, from the files in
 * the model's first version directory. It never looks inside a model file; filling inputs, outputs and batching from
 * the model itself is the backend's job ({@code BackendAutoCompleter}).
 *
 * <p>Rules, in Triton's order (the first that applies wins):
 * <ol>
 *   <li>TensorFlow: {@code model.savedmodel} (a directory) or {@code model.graphdef} (a file), by
 *       {@code default_model_filename} or found in the directory;</li>
 *   <li>TensorRT: platform {@code tensorrt_plan}, or {@code model.plan} (a file);</li>
 *   <li>ONNX Runtime: platform {@code onnxruntime_onnx}, or {@code model.onnx} (a file or a directory);</li>
 *   <li>OpenVINO: {@code model.xml};</li>
 *   <li>PyTorch: platform {@code pytorch_libtorch}/{@code libtorch}/{@code torch_aoti}, or {@code model.pt} /
 *       {@code model.pt2} (files);</li>
 *   <li>Python: {@code model.py};</li>
 *   <li>a custom backend: a model named {@code <anything>.<backend>} with nothing else given gets that backend and
 *       {@code default_model_filename: "model.<backend>"}.</li>
 * </ol>
 */
public final class ServerAutoCompleter
{
    private ServerAutoCompleter()
    {
    }

    /**
     * @param config                the configuration as read (possibly empty)
     * @param modelName             the model's name (its directory name); set as {@code name} when that is empty
     * @param firstVersionDirectory the lexicographically first version directory, or {@code null} when the model
     *                              has none (in-memory models)
     * @return the configuration with the backend fields completed as far as the rules allow
     * @throws ConfigException INVALID_ARG when nothing determines a backend (the message says what was looked
     *                         for); INTERNAL when the version directory cannot be listed
     */
    public static ModelConfig complete(final ModelConfig config, final String modelName,
        final Path firstVersionDirectory) throws ConfigException
    {
        final VersionContents contents = VersionContents.of(firstVersionDirectory);
        final ModelConfig.Builder builder = config.toBuilder();
        if (builder.getName().isEmpty())
        {
            builder.setName(modelName);
        }
        completeTensorFlowPlatform(builder, contents);
        if (isTensorFlow(builder) || completeTensorRt(builder, contents) || completeOnnx(builder, contents)
            || completeOpenVino(builder, contents) || completePyTorch(builder, contents)
            || completePython(builder, contents))
        {
            if (isTensorFlow(builder) && builder.getBackend().isEmpty())
            {
                builder.setBackend(Platforms.TENSORFLOW);
            }
            if (isTensorFlow(builder) && builder.getDefaultModelFilename().isEmpty())
            {
                builder.setDefaultModelFilename(Platforms.TENSORFLOW_SAVEDMODEL.equals(builder.getPlatform())
                    ? Platforms.SAVEDMODEL_FILENAME : Platforms.GRAPHDEF_FILENAME);
            }
            return builder.build();
        }
        if (builder.getBackend().isEmpty() && builder.getPlatform().isEmpty()
            && builder.getDefaultModelFilename().isEmpty())
        {
            completeCustomBackend(builder, modelName, contents);
        }
        return builder.build();
    }

    private static boolean isTensorFlow(final ModelConfig.Builder builder)
    {
        return Platforms.TENSORFLOW_SAVEDMODEL.equals(builder.getPlatform())
            || Platforms.TENSORFLOW_GRAPHDEF.equals(builder.getPlatform());
    }

    private static void completeTensorFlowPlatform(final ModelConfig.Builder builder, final VersionContents contents)
    {
        if (!builder.getPlatform().isEmpty()
            || !(builder.getBackend().isEmpty() || Platforms.TENSORFLOW.equals(builder.getBackend())))
        {
            return;
        }
        final String filename = builder.getDefaultModelFilename();
        if (Platforms.SAVEDMODEL_FILENAME.equals(filename))
        {
            builder.setPlatform(Platforms.TENSORFLOW_SAVEDMODEL);
        }
        else if (Platforms.GRAPHDEF_FILENAME.equals(filename))
        {
            builder.setPlatform(Platforms.TENSORFLOW_GRAPHDEF);
        }
        else if (filename.isEmpty())
        {
            if (contents.hasDirectory(Platforms.SAVEDMODEL_FILENAME))
            {
                builder.setPlatform(Platforms.TENSORFLOW_SAVEDMODEL);
            }
            if (contents.hasFile(Platforms.GRAPHDEF_FILENAME))
            {
                builder.setPlatform(Platforms.TENSORFLOW_GRAPHDEF);
            }
        }
    }

    /** @return whether the model is TensorRT (and now complete). */
    private static boolean completeTensorRt(final ModelConfig.Builder builder, final VersionContents contents)
    {
        if (builder.getBackend().isEmpty())
        {
            if (Platforms.TENSORRT_PLAN.equals(builder.getPlatform())
                || Platforms.PLAN_FILENAME.equals(builder.getDefaultModelFilename())
                || nothingGiven(builder) && contents.hasFile(Platforms.PLAN_FILENAME))
            {
                builder.setBackend(Platforms.TENSORRT);
            }
        }
        if (!Platforms.TENSORRT.equals(builder.getBackend()))
        {
            return false;
        }
        setIfEmpty(builder, Platforms.TENSORRT_PLAN, Platforms.PLAN_FILENAME);
        return true;
    }

    /** @return whether the model is ONNX Runtime (and now complete). */
    private static boolean completeOnnx(final ModelConfig.Builder builder, final VersionContents contents)
    {
        if (builder.getBackend().isEmpty())
        {
            if (Platforms.ONNXRUNTIME_ONNX.equals(builder.getPlatform())
                || Platforms.ONNX_FILENAME.equals(builder.getDefaultModelFilename())
                || nothingGiven(builder) && contents.has(Platforms.ONNX_FILENAME))
            {
                builder.setBackend(Platforms.ONNXRUNTIME);
            }
        }
        if (!Platforms.ONNXRUNTIME.equals(builder.getBackend()))
        {
            return false;
        }
        setIfEmpty(builder, Platforms.ONNXRUNTIME_ONNX, Platforms.ONNX_FILENAME);
        return true;
    }

    /** @return whether the model is OpenVINO (and now complete). */
    private static boolean completeOpenVino(final ModelConfig.Builder builder, final VersionContents contents)
    {
        if (builder.getBackend().isEmpty())
        {
            if (Platforms.OPENVINO_FILENAME.equals(builder.getDefaultModelFilename())
                || nothingGiven(builder) && contents.has(Platforms.OPENVINO_FILENAME))
            {
                builder.setBackend(Platforms.OPENVINO);
            }
        }
        if (!Platforms.OPENVINO.equals(builder.getBackend()))
        {
            return false;
        }
        if (builder.getDefaultModelFilename().isEmpty())
        {
            builder.setDefaultModelFilename(Platforms.OPENVINO_FILENAME);
        }
        return true;
    }

    /** @return whether the model is PyTorch (and now complete). */
    private static boolean completePyTorch(final ModelConfig.Builder builder, final VersionContents contents)
    {
        if (builder.getBackend().isEmpty())
        {
            final String platform = builder.getPlatform();
            final String filename = builder.getDefaultModelFilename();
            if (Platforms.PYTORCH_LIBTORCH.equals(platform) || Platforms.LIBTORCH.equals(platform)
                || Platforms.LIBTORCH_FILENAME.equals(filename) || Platforms.TORCH_AOTI.equals(platform)
                || Platforms.AOTI_FILENAME.equals(filename))
            {
                builder.setBackend(Platforms.PYTORCH);
            }
            else if (nothingGiven(builder))
            {
                if (contents.hasFile(Platforms.LIBTORCH_FILENAME))
                {
                    builder.setBackend(Platforms.PYTORCH).setPlatform(Platforms.PYTORCH_LIBTORCH);
                }
                else if (contents.hasFile(Platforms.AOTI_FILENAME))
                {
                    builder.setBackend(Platforms.PYTORCH).setPlatform(Platforms.TORCH_AOTI);
                }
            }
        }
        if (!Platforms.PYTORCH.equals(builder.getBackend()))
        {
            return false;
        }
        if (builder.getPlatform().isEmpty())
        {
            // TorchScript stays the default; AOTInductor must be asked for (or found as model.pt2).
            builder.setPlatform(Platforms.AOTI_FILENAME.equals(builder.getDefaultModelFilename())
                ? Platforms.TORCH_AOTI : Platforms.PYTORCH_LIBTORCH);
        }
        if (builder.getDefaultModelFilename().isEmpty())
        {
            builder.setDefaultModelFilename(Platforms.TORCH_AOTI.equals(builder.getPlatform())
                ? Platforms.AOTI_FILENAME : Platforms.LIBTORCH_FILENAME);
        }
        return true;
    }

    /** @return whether the model is Python (and now complete). */
    private static boolean completePython(final ModelConfig.Builder builder, final VersionContents contents)
    {
        if (builder.getBackend().isEmpty())
        {
            if (Platforms.PYTHON_FILENAME.equals(builder.getDefaultModelFilename())
                || nothingGiven(builder) && contents.has(Platforms.PYTHON_FILENAME))
            {
                builder.setBackend(Platforms.PYTHON);
            }
        }
        if (!Platforms.PYTHON.equals(builder.getBackend()))
        {
            return false;
        }
        if (builder.getDefaultModelFilename().isEmpty())
        {
            builder.setDefaultModelFilename(Platforms.PYTHON_FILENAME);
        }
        return true;
    }

    private static void completeCustomBackend(final ModelConfig.Builder builder, final String modelName,
        final VersionContents contents) throws ConfigException
    {
        final int dot = modelName.indexOf('.');
        if (dot < 0 || dot == modelName.length() - 1)
        {
            throw ConfigException.invalid("Invalid model name: Could not determine backend for model '" + modelName
                + "' with no backend in model configuration. Expected model name of the form "
                + "'model.<backend_name>'. " + contents.describe());
        }
        final String backend = modelName.substring(dot + 1);
        builder.setBackend(backend).setDefaultModelFilename("model." + backend);
    }

    private static boolean nothingGiven(final ModelConfig.Builder builder)
    {
        return builder.getPlatform().isEmpty() && builder.getDefaultModelFilename().isEmpty();
    }

    private static void setIfEmpty(final ModelConfig.Builder builder, final String platform, final String filename)
    {
        if (builder.getPlatform().isEmpty())
        {
            builder.setPlatform(platform);
        }
        if (builder.getDefaultModelFilename().isEmpty())
        {
            builder.setDefaultModelFilename(filename);
        }
    }

    /** The names in the first version directory, and which of them are directories. */
    private record VersionContents(Path directory, Set<String> files, Set<String> directories)
    {
        static VersionContents of(final Path directory) throws ConfigException
        {
            final Set<String> files = new TreeSet<>();
            final Set<String> directories = new TreeSet<>();
            if (directory != null)
            {
                try (Stream<Path> entries = Files.list(directory))
                {
                    for (final Path entry : (Iterable<Path>) entries::iterator)
                    {
                        (Files.isDirectory(entry) ? directories : files).add(entry.getFileName().toString());
                    }
                }
                catch (final IOException e)
                {
                    throw new ConfigException(ConfigException.Category.INTERNAL,
                        "failed to list version directory '" + directory + "': " + e, e);
                }
            }
            return new VersionContents(directory, files, directories);
        }

        boolean hasFile(final String name)
        {
            return files.contains(name);
        }

        boolean hasDirectory(final String name)
        {
            return directories.contains(name);
        }

        boolean has(final String name)
        {
            return hasFile(name) || hasDirectory(name);
        }

        String describe()
        {
            if (directory == null)
            {
                return "The model has no version directory to look for a model file in; set 'backend' or "
                    + "'platform' in its configuration.";
            }
            return "No known model file (model.plan, model.onnx, model.pt, model.pt2, model.savedmodel, "
                + "model.graphdef, model.xml, model.py) is in version directory '" + directory
                + "'; set 'backend' or 'platform' in the model configuration.";
        }
    }
}
