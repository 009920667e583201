package io.ingot.tensorflow.savedmodel;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.TextFormat;
import io.ingot.tensorflow.proto.MetaGraphDef;
import io.ingot.tensorflow.proto.SavedModel;
import io.ingot.tensorflow.proto.SignatureDef;
import io.ingot.tensorflow.proto.TensorInfo;
import io.ingot.tensorflow.proto.TensorShapeProto;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a SavedModel folder's {@code saved_model.pb} (or {@code saved_model.pbtxt}) and picks what Triton's
 * TensorFlow backend serves from it:
 * <ul>
 *   <li>the MetaGraphDef whose tag set is exactly {@code {tag}} ({@code TF_GRAPH_TAG}, default {@value #DEFAULT_TAG}),
 *       as TensorFlow's loader matches tags; otherwise "unable to load model 'm', expected 'serve' tag";</li>
 *   <li>its signature {@code TF_SIGNATURE_DEF}, default {@value #DEFAULT_SIGNATURE}; when the default is absent and
 *       none was named, the first other key that is not {@code __saved_model_init_op} or
 *       {@code __saved_model_train_op} (with a warning); otherwise "unable to load model 'm', expected 'sig'
 *       signature";</li>
 *   <li>a tensor whose type Triton has no name for fails with Triton's "unable to process input 'x' for 'm',
 *       unsupported datatype 'DT_COMPLEX64'".</li>
 * </ul>
 * Stateless and thread-safe. Needs no native library.
 */
public final class SavedModelReader
{
    /** The binary file TensorFlow's loader reads. */
    public static final String SAVED_MODEL_PB = "saved_model.pb";
    /** The text file it reads when there is no binary one. */
    public static final String SAVED_MODEL_PBTXT = "saved_model.pbtxt";
    /** {@code kSavedModelTagServe}: Triton's default {@code TF_GRAPH_TAG}. */
    public static final String DEFAULT_TAG = "serve";
    /** Triton's default {@code TF_SIGNATURE_DEF}. */
    public static final String DEFAULT_SIGNATURE = "serving_default";
    /** The signature key of a SavedModel's initialisation op, never served. */
    public static final String INIT_OP_KEY = "__saved_model_init_op";
    /** The signature key of a SavedModel's training op, never served. */
    public static final String TRAIN_OP_KEY = "__saved_model_train_op";

    private static final System.Logger LOG = System.getLogger(SavedModelReader.class.getName());

    private SavedModelReader()
    {
    }

    /**
     * @param directory a SavedModel folder
     * @param model     the model's name, for messages
     * @return the SavedModel it holds
     * @throws InvalidSavedModelException when the folder or its file is missing, unreadable or not a SavedModel
     */
    public static SavedModel read(final Path directory, final String model) throws InvalidSavedModelException
    {
        if (!Files.isDirectory(directory))
        {
            throw new InvalidSavedModelException("unable to find '" + directory + "' for model '" + model + "'"
                + (Files.exists(directory) ? ": it is a file, but a SavedModel is a folder holding " + SAVED_MODEL_PB
                : ""));
        }
        final Path binary = directory.resolve(SAVED_MODEL_PB);
        final Path text = directory.resolve(SAVED_MODEL_PBTXT);
        try
        {
            if (Files.isRegularFile(binary))
            {
                return parse(binary, model, Files.readAllBytes(binary));
            }
            if (Files.isRegularFile(text))
            {
                final SavedModel.Builder builder = SavedModel.newBuilder();
                TextFormat.Parser.newBuilder().setAllowUnknownFields(true).setAllowUnknownExtensions(true).build()
                    .merge(Files.readString(text, StandardCharsets.UTF_8), builder);
                return check(text, model, builder.build());
            }
        }
        catch (final IOException e)
        {
            throw new InvalidSavedModelException("model '" + model + "': cannot read the SavedModel in '" + directory
                + "': " + e.getMessage(), e);
        }
        throw new InvalidSavedModelException("model '" + model + "': '" + directory + "' is not a SavedModel: it holds"
            + " no " + SAVED_MODEL_PB + " (or " + SAVED_MODEL_PBTXT + ")");
    }

    private static SavedModel parse(final Path file, final String model, final byte[] bytes)
        throws InvalidSavedModelException
    {
        try
        {
            return check(file, model, SavedModel.parseFrom(bytes));
        }
        catch (final InvalidProtocolBufferException e)
        {
            throw new InvalidSavedModelException("model '" + model + "': '" + file + "' (" + bytes.length
                + " bytes) is not a SavedModel protocol buffer: " + e.getMessage(), e);
        }
    }

    private static SavedModel check(final Path file, final String model, final SavedModel savedModel)
        throws InvalidSavedModelException
    {
        if (savedModel.getMetaGraphsCount() == 0)
        {
            throw new InvalidSavedModelException("model '" + model + "': '" + file + "' holds no MetaGraphDef (it"
                + " parses as a SavedModel with no meta_graphs; is it a SavedModel at all?)");
        }
        return savedModel;
    }

    /**
     * @param directory    a SavedModel folder
     * @param model        the model's name, for messages
     * @param tag          {@code TF_GRAPH_TAG}, or empty for {@value #DEFAULT_TAG}
     * @param signatureKey {@code TF_SIGNATURE_DEF}, or empty for {@value #DEFAULT_SIGNATURE}
     * @return the signature Triton would serve
     * @throws InvalidSavedModelException when it cannot be found or holds a type Triton has no name for
     */
    public static ServingSignature signature(final Path directory, final String model, final String tag,
        final String signatureKey) throws InvalidSavedModelException
    {
        return signature(read(directory, model), model, tag, signatureKey);
    }

    /**
     * @param savedModel   a parsed SavedModel
     * @param model        the model's name, for messages
     * @param tag          {@code TF_GRAPH_TAG}, or empty for {@value #DEFAULT_TAG}
     * @param signatureKey {@code TF_SIGNATURE_DEF}, or empty for {@value #DEFAULT_SIGNATURE}
     * @return the signature Triton would serve
     * @throws InvalidSavedModelException when it cannot be found or holds a type Triton has no name for
     */
    public static ServingSignature signature(final SavedModel savedModel, final String model, final String tag,
        final String signatureKey) throws InvalidSavedModelException
    {
        final String useTag = tag.isEmpty() ? DEFAULT_TAG : tag;
        final MetaGraphDef metaGraph = metaGraph(savedModel, model, useTag);
        final Map<String, SignatureDef> signatures = metaGraph.getSignatureDefMap();
        final String useKey = signatureKey.isEmpty() ? DEFAULT_SIGNATURE : signatureKey;
        String key = useKey;
        SignatureDef signature = signatures.get(useKey);
        if (signature == null && signatureKey.isEmpty())
        {
            for (final String candidate : signatures.keySet().stream().sorted().toList())
            {
                if (!candidate.equals(INIT_OP_KEY) && !candidate.equals(TRAIN_OP_KEY))
                {
                    LOG.log(System.Logger.Level.WARNING, "model ''{0}'': unable to find serving signature ''{1}'';"
                        + " using signature ''{2}''", model, useKey, candidate);
                    key = candidate;
                    signature = signatures.get(candidate);
                    break;
                }
            }
        }
        if (signature == null)
        {
            throw new InvalidSavedModelException("unable to load model '" + model + "', expected '" + useKey
                + "' signature (the MetaGraphDef tagged '" + useTag + "' has signatures "
                + signatures.keySet().stream().sorted().toList() + ")");
        }
        return new ServingSignature(useTag, key, tensors(signature.getInputsMap(), "input", model),
            tensors(signature.getOutputsMap(), "output", model));
    }

    private static MetaGraphDef metaGraph(final SavedModel savedModel, final String model, final String tag)
        throws InvalidSavedModelException
    {
        final List<List<String>> tagSets = new ArrayList<>();
        for (final MetaGraphDef metaGraph : savedModel.getMetaGraphsList())
        {
            final Set<String> tags = new HashSet<>(metaGraph.getMetaInfoDef().getTagsList());
            if (tags.equals(Set.of(tag)))
            {
                return metaGraph;
            }
            tagSets.add(metaGraph.getMetaInfoDef().getTagsList());
        }
        throw new InvalidSavedModelException("unable to load model '" + model + "', expected '" + tag + "' tag (the"
            + " SavedModel's MetaGraphDefs are tagged " + tagSets + "; set parameter TF_GRAPH_TAG to load another)");
    }

    private static List<SignatureTensor> tensors(final Map<String, TensorInfo> infos, final String role,
        final String model) throws InvalidSavedModelException
    {
        final List<SignatureTensor> tensors = new ArrayList<>();
        for (final Map.Entry<String, TensorInfo> entry : infos.entrySet())
        {
            final TensorInfo info = entry.getValue();
            if (DataTypes.toIngot(info.getDtypeValue()) == null)
            {
                throw new InvalidSavedModelException("unable to process " + role + " '" + entry.getKey() + "' for '"
                    + model + "', unsupported datatype '" + DataTypes.name(info.getDtypeValue()) + "'");
            }
            if (info.getEncodingCase() != TensorInfo.EncodingCase.NAME || info.getName().isEmpty())
            {
                throw new InvalidSavedModelException("unable to process " + role + " '" + entry.getKey() + "' for '"
                    + model + "': it is not a dense tensor with a graph name (sparse and composite signature tensors"
                    + " are not supported)");
            }
            final TensorShapeProto shape = info.getTensorShape();
            final boolean known = info.hasTensorShape() && !shape.getUnknownRank();
            final long[] dims = new long[known ? shape.getDimCount() : 0];
            for (int i = 0; i < dims.length; i++)
            {
                dims[i] = shape.getDim(i).getSize() < 0 ? -1 : shape.getDim(i).getSize();
            }
            tensors.add(new SignatureTensor(entry.getKey(), info.getName(), info.getDtypeValue(), dims, known));
        }
        tensors.sort(Comparator.comparing(SignatureTensor::name));
        return tensors;
    }
}
