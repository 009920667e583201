package io.ingot.tensorflow.savedmodel;

import io.ingot.tensor.DataType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes the example repository's SavedModels at build time ({@code exec-maven-plugin}, phase
 * {@code process-classes}): {@code my_model/1/model.savedmodel} and {@code priority_model/1/model.savedmodel}, the
 * article's two models. Both are Triton's classic "simple" model as a SavedModel: {@code INPUT0} and {@code INPUT1},
 * FP32 {@code [-1, 16]}, give {@code OUTPUT0 = INPUT0 + INPUT1} ({@code AddV2}) and {@code OUTPUT1 = INPUT0 - INPUT1}
 * ({@code Sub}), signature {@code serving_default}, tag {@code serve}. A file whose bytes are already right is left
 * alone.
 */
public final class ExampleSavedModels
{
    /** The example models that hold this SavedModel. */
    public static final List<String> MODELS = List.of("my_model", "priority_model");

    private ExampleSavedModels()
    {
    }

    /**
     * @param args the example repository ({@code examples/models})
     * @throws IOException when a file cannot be written
     */
    public static void main(final String[] args) throws IOException
    {
        if (args.length != 1)
        {
            throw new IllegalArgumentException("usage: ExampleSavedModels <examples/models>");
        }
        final Path repository = Path.of(args[0]).toAbsolutePath().normalize();
        for (final String model : MODELS)
        {
            if (!Files.isRegularFile(repository.resolve(model).resolve("config.pbtxt")))
            {
                throw new IOException(repository.resolve(model).resolve("config.pbtxt") + " is missing: the example"
                    + " SavedModel belongs to that configuration");
            }
            final Path directory = repository.resolve(model).resolve("1").resolve("model.savedmodel");
            if (addSub(16).write(directory))
            {
                System.out.println("wrote " + directory.resolve(SavedModelReader.SAVED_MODEL_PB));
            }
        }
    }

    /**
     * @param elements the length of each vector
     * @return the "simple" add/sub SavedModel, batching on its first dimension
     */
    public static SavedModelWriter addSub(final int elements)
    {
        final GraphBuilder graph = new GraphBuilder();
        final String a = graph.placeholder("INPUT0", DataType.FP32, -1, elements);
        final String b = graph.placeholder("INPUT1", DataType.FP32, -1, elements);
        final String sum = graph.binary("AddV2", "add", a, b, DataType.FP32);
        final String difference = graph.binary("Sub", "sub", a, b, DataType.FP32);
        final long[] dims = {-1, elements};
        return new SavedModelWriter(graph.build(), SavedModelReader.DEFAULT_TAG)
            .input(SavedModelReader.DEFAULT_SIGNATURE, "INPUT0", a + ":0", DataType.FP32, dims)
            .input(SavedModelReader.DEFAULT_SIGNATURE, "INPUT1", b + ":0", DataType.FP32, dims)
            .output(SavedModelReader.DEFAULT_SIGNATURE, "OUTPUT0", sum + ":0", DataType.FP32, dims)
            .output(SavedModelReader.DEFAULT_SIGNATURE, "OUTPUT1", difference + ":0", DataType.FP32, dims);
    }
}
