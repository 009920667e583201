package io.ingot.tensorflow.savedmodel;

import io.ingot.tensor.DataType;
import io.ingot.tensorflow.proto.GraphDef;
import io.ingot.tensorflow.proto.MetaGraphDef;
import io.ingot.tensorflow.proto.SavedModel;
import io.ingot.tensorflow.proto.SignatureDef;
import io.ingot.tensorflow.proto.TensorInfo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a SavedModel folder: {@code saved_model.pb} (schema version 1, one MetaGraphDef with the given tags, graph
 * and signatures) and an empty {@code variables/} folder, the layout {@code tf.saved_model.save} produces for a
 * model without variables (TensorFlow's loader then restores nothing). Not thread-safe: one builder per model.
 */
public final class SavedModelWriter
{
    /** The signature method name TensorFlow writes for predict signatures. */
    public static final String PREDICT_METHOD = "tensorflow/serving/predict";

    private final GraphDef graph;
    private final List<String> tags;
    private final Map<String, SignatureDef.Builder> signatures = new LinkedHashMap<>();

    /**
     * @param graph the graph
     * @param tags  the MetaGraphDef's tags (usually {@code serve})
     */
    public SavedModelWriter(final GraphDef graph, final String... tags)
    {
        this.graph = graph;
        this.tags = List.of(tags);
    }

    /**
     * Adds an input to a signature (creating it).
     *
     * @param signature   the signature key
     * @param name        the input's key
     * @param graphTensor the graph tensor it feeds ({@code "op:0"})
     * @param type        its element type
     * @param dims        its shape, {@code -1} where unknown; {@code null} for no shape
     * @return this writer
     */
    public SavedModelWriter input(final String signature, final String name, final String graphTensor,
        final DataType type, final long[] dims)
    {
        signature(signature).putInputs(name, info(graphTensor, DataTypes.toTf(type), dims));
        return this;
    }

    /**
     * Adds an output to a signature (creating it).
     *
     * @param signature   the signature key
     * @param name        the output's key
     * @param graphTensor the graph tensor it fetches
     * @param type        its element type
     * @param dims        its shape, {@code -1} where unknown; {@code null} for no shape
     * @return this writer
     */
    public SavedModelWriter output(final String signature, final String name, final String graphTensor,
        final DataType type, final long[] dims)
    {
        signature(signature).putOutputs(name, info(graphTensor, DataTypes.toTf(type), dims));
        return this;
    }

    /**
     * Adds a tensor of any TensorFlow type, including those Triton has no name for.
     *
     * @param signature   the signature key
     * @param input       true for an input, false for an output
     * @param name        the tensor's key
     * @param graphTensor the graph tensor
     * @param tfType      its {@code DataType} number
     * @param dims        its shape, or {@code null}
     * @return this writer
     */
    public SavedModelWriter tensor(final String signature, final boolean input, final String name,
        final String graphTensor, final int tfType, final long[] dims)
    {
        if (input)
        {
            signature(signature).putInputs(name, info(graphTensor, tfType, dims));
        }
        else
        {
            signature(signature).putOutputs(name, info(graphTensor, tfType, dims));
        }
        return this;
    }

    private SignatureDef.Builder signature(final String key)
    {
        return signatures.computeIfAbsent(key, k -> SignatureDef.newBuilder().setMethodName(PREDICT_METHOD));
    }

    private static TensorInfo info(final String graphTensor, final int tfType, final long[] dims)
    {
        final TensorInfo.Builder info = TensorInfo.newBuilder().setName(graphTensor).setDtypeValue(tfType);
        if (dims != null)
        {
            info.setTensorShape(GraphBuilder.shape(dims));
        }
        return info.build();
    }

    /** @return the SavedModel message */
    public SavedModel build()
    {
        final MetaGraphDef.Builder metaGraph = MetaGraphDef.newBuilder()
            .setMetaInfoDef(MetaGraphDef.MetaInfoDef.newBuilder().addAllTags(tags).setTensorflowVersion("2.18.0")
                .setMetaGraphVersion("ingot-savedmodel-writer"))
            .setGraphDef(graph);
        signatures.forEach((key, signature) -> metaGraph.putSignatureDef(key, signature.build()));
        return SavedModel.newBuilder().setSavedModelSchemaVersion(1).addMetaGraphs(metaGraph).build();
    }

    /**
     * Writes the SavedModel into {@code directory} (created), replacing {@code saved_model.pb} only when its bytes
     * differ, through a temporary file, so a reader never sees a partial file.
     *
     * @param directory the SavedModel folder ({@code .../1/model.savedmodel})
     * @return true when the file was (re)written
     * @throws IOException when it cannot be written
     */
    public boolean write(final Path directory) throws IOException
    {
        Files.createDirectories(directory.resolve("variables"));
        final byte[] bytes = build().toByteArray();
        final Path file = directory.resolve(SavedModelReader.SAVED_MODEL_PB);
        if (Files.isRegularFile(file) && Arrays.equals(Files.readAllBytes(file), bytes))
        {
            return false;
        }
        final Path partial = Files.createTempFile(directory, SavedModelReader.SAVED_MODEL_PB, ".part");
        try
        {
            Files.write(partial, bytes);
            Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        finally
        {
            Files.deleteIfExists(partial);
        }
        return true;
    }
}
