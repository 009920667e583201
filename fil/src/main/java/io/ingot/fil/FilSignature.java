package io.ingot.fil;

import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInput;
import io.ingot.config.proto.ModelOutput;
import io.ingot.tensor.DataType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What a FIL model's configuration must say, checked against the model: one input {@value #INPUT} of
 * {@code [features]} (after the batch dimension; {@code [rows, features]} for a model that does not batch) in an
 * element type the library reads in place, and one output {@value #OUTPUT}, FP32, with as many values per row as the
 * FIL parameters and the model give ({@link OutputTransform#allowedOutputs}). Every disagreement is reported at
 * once.
 *
 * @param inputType  {@code input__0}'s element type
 * @param batching   whether the model batches ({@code max_batch_size > 0})
 * @param features   features per row
 * @param width      scores per row the library predicts
 * @param outputs    {@code output__0}'s values per row
 * @param transform  how scores become outputs
 */
record FilSignature(DataType inputType, boolean batching, long features, int width, long outputs,
    OutputTransform transform)
{
    /** Triton's FIL input name. */
    static final String INPUT = "input__0";
    /** Triton's FIL output name. */
    static final String OUTPUT = "output__0";
    /** Triton's FIL output of SHAP values, which needs Treelite's GPU/CPU TreeSHAP. */
    static final String TREESHAP = "treeshap_output";

    /**
     * @param model      the model's name, for the message
     * @param config     its configuration
     * @param parameters its FIL parameters
     * @param forest     the loaded model
     * @return the signature
     * @throws FilModelException listing every disagreement
     */
    static FilSignature check(final String model, final ModelConfig config, final FilParameters parameters,
        final Forest forest) throws FilModelException
    {
        final List<String> problems = new ArrayList<>();
        final boolean batching = config.getMaxBatchSize() > 0;
        final long features = forest.numFeatures();
        final String rowsPrefix = batching ? "" : "-1, ";
        DataType inputType = DataType.FP32;
        if (config.getInputCount() != 1 || !config.getInput(0).getName().equals(INPUT))
        {
            problems.add("the FIL backend takes exactly one input, '" + INPUT + "' (dims [" + rowsPrefix + features
                + "]), the configuration has " + names(config.getInputList().stream().map(ModelInput::getName)
                    .toList()));
        }
        for (final ModelInput input : config.getInputList())
        {
            if (!input.getName().equals(INPUT))
            {
                continue;
            }
            final DataType type = DataType.fromConfigNumber(input.getDataTypeValue());
            if (type == null || !forest.inputTypes().contains(type))
            {
                problems.add("input '" + INPUT + "' has data type " + input.getDataType() + ", which "
                    + forest.library() + " does not read in place; use " + types(forest));
            }
            else
            {
                inputType = type;
            }
            final List<Long> dims = input.getDimsList();
            final int expectedRank = batching ? 1 : 2;
            final long last = dims.isEmpty() ? 0 : dims.getLast();
            if (dims.size() != expectedRank || last != features && last != -1)
            {
                problems.add("input '" + INPUT + "' has dims " + dims + " but the model takes " + features
                    + " features per row: dims [" + rowsPrefix + features + "]"
                    + (batching ? "" : " (max_batch_size is 0, so the first dimension is the rows)"));
            }
        }
        final int width = forest.scoresPerRow();
        final long[] allowed = OutputTransform.allowedOutputs(parameters.isClassifier(), parameters.predictProba(),
            width, forest.scoresAreMargins());
        long outputs = allowed[0];
        boolean hasOutput = false;
        for (final ModelOutput output : config.getOutputList())
        {
            if (output.getName().equals(TREESHAP))
            {
                problems.add("output '" + TREESHAP + "' (SHAP values) is not supported by Ingot's FIL backend");
                continue;
            }
            if (!output.getName().equals(OUTPUT))
            {
                problems.add("output '" + output.getName() + "' is not an output of the FIL backend (its outputs are '"
                    + OUTPUT + "' and '" + TREESHAP + "')");
                continue;
            }
            hasOutput = true;
            if (output.getDataType() != io.ingot.config.proto.DataType.TYPE_FP32)
            {
                problems.add("output '" + OUTPUT + "' has data type " + output.getDataType() + "; the FIL backend"
                    + " writes TYPE_FP32");
            }
            final List<Long> dims = output.getDimsList();
            final long last = dims.isEmpty() ? 0 : dims.getLast();
            final boolean fits = dims.size() == (batching ? 1 : 2) && Arrays.stream(allowed).anyMatch(n -> n == last);
            if (fits)
            {
                outputs = last;
            }
            else
            {
                problems.add("output '" + OUTPUT + "' has dims " + dims + " but " + expectation(parameters, width,
                    forest.scoresAreMargins(), allowed, rowsPrefix));
            }
        }
        if (!hasOutput)
        {
            problems.add("the configuration has no output '" + OUTPUT + "' (TYPE_FP32, dims [" + rowsPrefix
                + allowed[0] + "])");
        }
        if (!problems.isEmpty())
        {
            throw new FilModelException(model + ": the configuration disagrees with the model (" + forest.describe()
                + "): " + String.join("; ", problems));
        }
        return new FilSignature(inputType, batching, features, width, outputs, OutputTransform.choose(
            parameters.isClassifier(), parameters.predictProba(), width, forest.scoresAreMargins(), outputs));
    }

    private static String expectation(final FilParameters parameters, final int width, final boolean margins,
        final long[] allowed, final String rowsPrefix)
    {
        final String dims = Arrays.stream(allowed).mapToObj(n -> "[" + rowsPrefix + n + "]")
            .collect(Collectors.joining(" or "));
        final String what;
        if (parameters.isClassifier() && !parameters.predictProba())
        {
            what = "a classifier without predict_proba returns one class id per row";
        }
        else if (!parameters.isClassifier() && margins)
        {
            what = "this multi:softmax model predicts one class id per row";
        }
        else if (parameters.isClassifier() && width == 1)
        {
            what = "a binary classifier with predict_proba returns p, or [1 - p, p]";
        }
        else
        {
            what = "the model predicts " + width + " value" + (width == 1 ? "" : "s") + " per row"
                + (!parameters.isClassifier() && width > 1 ? " (it is a " + width + "-class model: set is_classifier"
                    + " \"true\" for class ids)" : "");
        }
        return what + ": dims " + dims;
    }

    private static String types(final Forest forest)
    {
        return forest.inputTypes().stream().map(type -> "TYPE_" + type.name()).sorted()
            .collect(Collectors.joining(", "));
    }

    private static String names(final List<String> names)
    {
        return names.isEmpty() ? "none" : names.stream().map(name -> "'" + name + "'")
            .collect(Collectors.joining(", "));
    }
}
