package io.ingot.benchmarks.onnxjni;

import java.nio.file.Files;
import java.nio.file.Path;

/** Finds the {@code .onnx} file of a model version as Triton does: a directory stands for its {@code model.onnx}. */
final class OnnxModelFile
{
    /** The file name Triton expects for {@code onnxruntime_onnx}. */
    static final String DEFAULT_NAME = "model.onnx";

    private OnnxModelFile()
    {
    }

    /**
     * @param model     model name, for messages
     * @param version   version, for messages
     * @param modelFile the file (or directory) the repository selected, or {@code null} for an in-memory model
     * @return the ONNX file
     * @throws ModelLoadException when there is none
     */
    static Path resolve(final String model, final long version, final Path modelFile) throws ModelLoadException
    {
        if (modelFile == null)
        {
            throw new ModelLoadException("model '" + model + "' version " + version + ": the onnxruntime backend needs"
                + " a model file, and an in-memory model has none");
        }
        final Path file = Files.isDirectory(modelFile) ? modelFile.resolve(DEFAULT_NAME) : modelFile;
        if (!Files.isRegularFile(file))
        {
            throw new ModelLoadException("model '" + model + "' version " + version + ": model file '"
                + file.toAbsolutePath() + "' not found (the onnxruntime backend loads " + DEFAULT_NAME
                + " from the version directory, or the file named by default_model_filename)");
        }
        return file;
    }
}
