package io.ingot.pytorch;

import io.ingot.backend.SequenceBatchTensors;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInput;
import io.ingot.config.proto.ModelOutput;
import io.ingot.tensor.DataType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How a model's configured inputs and outputs meet its {@code forward}, decided once at load as Triton's PyTorch
 * backend decides it ({@code ValidateInputs}, {@code ValidateOutputs}, {@code GetNamingConvention}):
 * <ul>
 *   <li>a single {@code Dict[str, Tensor]} argument takes every input, keyed by its configured name;</li>
 *   <li>otherwise, when every configured input name is an argument name of {@code forward}, each input goes to its
 *       argument; else, when every name is {@code <name>__<index>}, to argument {@code index}; else in
 *       configuration order (with Triton's warning when a {@code __} name has a non-numeric index);</li>
 *   <li>outputs named {@code <name>__<index>} take element {@code index} of what {@code forward} returns (a tuple's
 *       members, or the one tensor or {@code List[str]}); otherwise configuration order;</li>
 *   <li>the sequence batcher's control inputs and implicit states are arguments and results too, placed by their
 *       {@code <name>__<index>} names ({@link SequenceIo}); {@code forward} takes the configured inputs, the controls
 *       and the states.</li>
 * </ul>
 * Where the signature is known it is checked beyond Triton's load-time checks: the argument count, every index in
 * range and used once, STRING inputs and outputs at {@code List[str]} positions, tensors at tensor positions, and
 * every output index within what {@code forward} returns (Triton finds those at the first request).
 *
 * <p>Immutable; shared by the model's engines.
 */
final class IoPlan
{
    private static final System.Logger LOG = System.getLogger(IoPlan.class.getName());
    private static final String DELIMITER = "__";

    /** How inputs are matched to {@code forward}'s arguments (Triton's {@code NamingConvention}, plus the dict). */
    enum Convention
    {
        FORWARD_ARGUMENT, NAMED_INDEX, STRICT_CONFIG_ORDERING, DICT
    }

    /**
     * One configured input.
     *
     * @param name     its name (the dict key for a dict input)
     * @param dataType its type; {@code BYTES} goes to {@code forward} as a {@code List[str]}
     * @param position the argument it is passed as (unused for a dict input)
     * @param reshape  the configured {@code reshape}, or {@code null}
     */
    record Input(String name, DataType dataType, int position, long[] reshape)
    {
    }

    /**
     * One configured output.
     *
     * @param name     its name
     * @param dataType its type
     * @param index    the element of {@code forward}'s result it is
     * @param dims     the configured dims (after the batch dimension)
     * @param reshape  the configured {@code reshape}, or {@code null}
     * @param state    for the output of an implicit state, the state's {@code input_name}; else {@code null}
     */
    record Output(String name, DataType dataType, int index, long[] dims, long[] reshape, String state)
    {
    }

    private final String model;
    private final boolean batching;
    private final Convention convention;
    private final int argumentCount;
    private final List<Input> inputs;
    private final List<Output> outputs;
    private final List<ForwardSignature.Produced> produced;

    private IoPlan(final String model, final boolean batching, final Convention convention, final int argumentCount,
        final List<Input> inputs, final List<Output> outputs, final List<ForwardSignature.Produced> produced)
    {
        this.model = model;
        this.batching = batching;
        this.convention = convention;
        this.argumentCount = argumentCount;
        this.inputs = List.copyOf(inputs);
        this.outputs = List.copyOf(outputs);
        this.produced = produced;
    }

    /**
     * @param model         the model's name
     * @param version       the version being loaded, for messages
     * @param config        its configuration
     * @param signature     {@code forward}'s signature, or {@code null} when the archive's code could not be read
     *                      (then only the configuration is checked)
     * @param inferenceMode whether the model runs under inference mode (STRING needs it, see {@link TorchEngine})
     * @return the plan
     * @throws ModelLoadException naming the model and every disagreement
     */
    static IoPlan of(final String model, final long version, final ModelConfig config,
        final ForwardSignature signature, final boolean inferenceMode) throws ModelLoadException
    {
        final List<String> problems = new ArrayList<>();
        final boolean batching = config.getMaxBatchSize() > 0;
        checkUnsupportedFeatures(config, problems);
        if (config.getInputCount() == 0)
        {
            problems.add("model configuration must contain at least one input, none were specified.");
        }
        if (config.getOutputCount() == 0)
        {
            problems.add("model configuration must contain at least one output, none were specified.");
        }
        for (final ModelInput input : config.getInputList())
        {
            checkType(model, "input", input.getName(), dataType(input.getDataType().getNumber()),
                input.hasReshape() ? input.getReshape().getShapeCount() : input.getDimsCount(), batching,
                inferenceMode, problems);
        }
        for (final ModelOutput output : config.getOutputList())
        {
            checkType(model, "output", output.getName(), dataType(output.getDataType().getNumber()),
                output.hasReshape() ? output.getReshape().getShapeCount() : output.getDimsCount(), batching,
                inferenceMode, problems);
        }

        final List<String> names = config.getInputList().stream().map(ModelInput::getName).toList();
        final int sequenceInputs = SequenceBatchTensors.controls(config).size()
            + SequenceBatchTensors.states(config).size();
        final Convention convention = inputConvention(model, names, sequenceInputs, signature, problems);
        final List<Input> inputs = new ArrayList<>();
        for (int i = 0; i < config.getInputCount(); i++)
        {
            final ModelInput input = config.getInput(i);
            final int position = switch (convention)
            {
                case FORWARD_ARGUMENT -> signature.names().indexOf(input.getName());
                case NAMED_INDEX -> index(input.getName());
                case STRICT_CONFIG_ORDERING, DICT -> i;
            };
            inputs.add(new Input(input.getName(), dataType(input.getDataType().getNumber()), position,
                input.hasReshape() ? longs(input.getReshape().getShapeList()) : null));
        }
        SequenceIo.addControls(model, config, inferenceMode, inputs, problems);
        final int argumentCount = signature == null ? -1 : signature.arguments().size();

        final List<String> outputNames = config.getOutputList().stream().map(ModelOutput::getName).toList();
        final boolean namedIndex = namedIndex(model, "output", outputNames);
        final List<Output> outputs = new ArrayList<>();
        for (int i = 0; i < config.getOutputCount(); i++)
        {
            final ModelOutput output = config.getOutput(i);
            outputs.add(new Output(output.getName(), dataType(output.getDataType().getNumber()),
                namedIndex ? index(output.getName()) : i, longs(output.getDimsList()),
                output.hasReshape() ? longs(output.getReshape().getShapeList()) : null, null));
        }
        SequenceIo.addStates(model, config, convention, namedIndex, inputs, outputs, problems);
        if (convention != Convention.DICT)
        {
            checkPositions(inputs, signature, problems);
        }
        final List<ForwardSignature.Produced> produced = signature == null ? null : signature.produced();
        if (produced != null)
        {
            checkProduced(outputs, produced, signature.returnType(), problems);
        }
        if (!problems.isEmpty())
        {
            throw new ModelLoadException("model '" + model + "' version " + version + ": "
                + String.join("; ", problems));
        }
        return new IoPlan(model, batching, convention, argumentCount, inputs, outputs, produced);
    }

    /** The runtime does not hand engines batch inputs yet; refuse rather than call forward with fewer arguments. */
    private static void checkUnsupportedFeatures(final ModelConfig config, final List<String> problems)
    {
        if (config.getBatchInputCount() > 0)
        {
            problems.add("batch_input is not supported by Ingot's PyTorch backend (the runtime does not pass batch"
                + " inputs to engines)");
        }
        for (final ModelInput input : config.getInputList())
        {
            if (input.getOptional())
            {
                problems.add("input '" + input.getName() + "' is optional, but forward takes every argument on every"
                    + " call: TorchScript inputs cannot be optional here");
            }
        }
    }

    private static void checkType(final String model, final String direction, final String name,
        final DataType type, final int dimCount, final boolean batching, final boolean inferenceMode,
        final List<String> problems)
    {
        if (type == null)
        {
            problems.add("unsupported datatype TYPE_INVALID for " + direction + " '" + name + "' for model '" + model
                + "'");
            return;
        }
        final String unsupported = TorchTypes.unsupported(type, direction, name, model);
        if (unsupported != null)
        {
            problems.add(unsupported);
            return;
        }
        if (type == DataType.BYTES)
        {
            if (dimCount + (batching ? 1 : 0) > 1)
            {
                problems.add("Triton only supports 1 dimensional List of String as " + direction + " for '" + name
                    + "' for model '" + model + "'" + (batching ? " (with max_batch_size > 0, give dims [1] and"
                    + " reshape { shape: [ ] })" : ""));
            }
            if (!inferenceMode)
            {
                problems.add(direction + " '" + name + "' is TYPE_STRING, which needs INFERENCE_MODE true here (DJL's"
                    + " JNI runs List[str] arguments and results only in inference mode)");
            }
        }
    }

    /**
     * @param sequenceInputs the sequence batcher's controls and states, which forward takes beyond the configured
     *                       inputs
     */
    private static Convention inputConvention(final String model, final List<String> names,
        final int sequenceInputs, final ForwardSignature signature, final List<String> problems)
    {
        if (signature != null)
        {
            final List<ForwardSignature.Argument> arguments = signature.arguments();
            if (arguments.size() == 1 && arguments.getFirst().kind() == ForwardSignature.Kind.DICT)
            {
                return Convention.DICT;
            }
            for (int i = 1; i < arguments.size(); i++)
            {
                if (arguments.get(i).kind() == ForwardSignature.Kind.DICT)
                {
                    problems.add("Multiple inputs of kind DictType were detected. Only a single input of type"
                        + " Dict(str, Tensor) is supported.");
                    return Convention.STRICT_CONFIG_ORDERING;
                }
            }
            for (final ForwardSignature.Argument argument : arguments)
            {
                final ForwardSignature.Kind kind = argument.kind();
                if (kind != ForwardSignature.Kind.TENSOR && kind != ForwardSignature.Kind.LIST)
                {
                    problems.add("An input of type '" + argument.type() + "' was detected in the model. Only a single"
                        + " input of type Dict(str, Tensor) or input(s) of type Tensor are supported.");
                }
            }
            if (arguments.size() != names.size() + sequenceInputs)
            {
                problems.add("unable to load model '" + model + "', configuration expects "
                    + (names.size() + sequenceInputs) + " inputs, model provides " + arguments.size() + " (forward("
                    + String.join(", ", signature.names()) + ")" + (sequenceInputs == 0 ? ""
                    : "; the configuration's " + names.size() + " inputs and " + sequenceInputs + " sequence"
                    + " controls and states") + ")");
            }
            if (signature.names().containsAll(names))
            {
                return Convention.FORWARD_ARGUMENT;
            }
        }
        return namedIndex(model, "input", names) ? Convention.NAMED_INDEX : Convention.STRICT_CONFIG_ORDERING;
    }

    /**
     * Whether every name is {@code <name>__<digits>}; logs Triton's warning when a {@code __} name has a non-numeric
     * index (a name without {@code __} falls back to configuration order silently, as in Triton).
     */
    private static boolean namedIndex(final String model, final String direction, final List<String> names)
    {
        for (final String name : names)
        {
            final int at = name.indexOf(DELIMITER);
            if (at < 0)
            {
                return false;
            }
            if (!name.substring(at + DELIMITER.length()).chars().allMatch(Character::isDigit))
            {
                if (direction.equals("input"))
                {
                    LOG.log(System.Logger.Level.WARNING, "input ''{0}'' or previous input(s) are neither an input"
                        + " argument to the model ''{1}'' nor do they follow the <name>__<index> naming convention."
                        + " Falling back to enforcing strict ordering from model configuration.", name, model);
                }
                else
                {
                    LOG.log(System.Logger.Level.WARNING, "output ''{0}'' or previous output(s) of the model ''{1}''"
                        + " do not follow the <name>__<index> naming convention. Falling back to enforcing strict"
                        + " ordering from model configuration.", name, model);
                }
                return false;
            }
        }
        return true;
    }

    /**
     * @param name a tensor name
     * @return whether it is {@code <name>__<digits>} (Triton's check: the first {@code __} followed by digits only)
     */
    static boolean isNamedIndex(final String name)
    {
        final int at = name.indexOf(DELIMITER);
        return at >= 0 && name.substring(at + DELIMITER.length()).chars().allMatch(Character::isDigit);
    }

    /** The index after the first {@code __}; an empty index is 0, as {@code atoi("")} makes it in Triton. */
    static int index(final String name)
    {
        final String digits = name.substring(name.indexOf(DELIMITER) + DELIMITER.length());
        if (digits.isEmpty())
        {
            return 0;
        }
        try
        {
            return Integer.parseInt(digits);
        }
        catch (final NumberFormatException e)
        {
            return Integer.MAX_VALUE;
        }
    }

    private static void checkPositions(final List<Input> inputs, final ForwardSignature signature,
        final List<String> problems)
    {
        final Map<Integer, String> taken = new HashMap<>();
        for (final Input input : inputs)
        {
            final String other = taken.putIfAbsent(input.position(), input.name());
            if (other != null)
            {
                problems.add("inputs '" + other + "' and '" + input.name() + "' both go to forward's argument "
                    + input.position());
            }
            if (signature == null)
            {
                if (input.position() >= inputs.size())
                {
                    problems.add("input '" + input.name() + "' goes to forward's argument " + input.position()
                        + ", but the configuration has " + inputs.size() + " inputs");
                }
                continue;
            }
            final List<ForwardSignature.Argument> arguments = signature.arguments();
            if (input.position() >= arguments.size() && arguments.size() == inputs.size())
            {
                problems.add("input '" + input.name() + "' goes to forward's argument " + input.position()
                    + ", but forward takes " + arguments.size() + " (" + String.join(", ", signature.names()) + ")");
                continue;
            }
            if (input.position() >= arguments.size())
            {
                continue;
            }
            final ForwardSignature.Argument argument = arguments.get(input.position());
            final boolean strings = input.dataType() == DataType.BYTES;
            if (strings && argument.kind() == ForwardSignature.Kind.TENSOR
                || !strings && argument.kind() == ForwardSignature.Kind.LIST)
            {
                problems.add("input '" + input.name() + "' is " + TorchTypes.configName(input.dataType())
                    + " in the configuration, but forward's argument '" + argument.name() + "' is "
                    + argument.type() + (strings ? "" : " (TYPE_STRING inputs are passed as List[str])"));
            }
        }
    }

    private static void checkProduced(final List<Output> outputs, final List<ForwardSignature.Produced> produced,
        final String returnType, final List<String> problems)
    {
        for (int i = 0; i < produced.size(); i++)
        {
            if (produced.get(i) == ForwardSignature.Produced.UNSUPPORTED)
            {
                problems.add("forward returns " + returnType + ": output must be of type Tensor, List[str] or Tuple"
                    + " containing one of these two types. It should not be a List / Dictionary of Tensors or a"
                    + " Scalar");
                return;
            }
        }
        for (final Output output : outputs)
        {
            if (output.index() >= produced.size())
            {
                problems.add("The output " + output.name() + " in the model configuration refers to an output index"
                    + " which doesn't exist. This model has " + produced.size() + " outputs (forward returns "
                    + returnType + ")");
                continue;
            }
            final boolean strings = output.dataType() == DataType.BYTES;
            final ForwardSignature.Produced element = produced.get(output.index());
            if (strings != (element == ForwardSignature.Produced.STRINGS))
            {
                problems.add("output '" + output.name() + "' is " + TorchTypes.configName(output.dataType())
                    + " in the configuration, but element " + output.index() + " of forward's result is "
                    + (element == ForwardSignature.Produced.STRINGS ? "List[str]" : "Tensor"));
            }
        }
    }

    private static DataType dataType(final int configNumber)
    {
        return DataType.fromConfigNumber(configNumber);
    }

    private static long[] longs(final List<Long> values)
    {
        return values.stream().mapToLong(Long::longValue).toArray();
    }

    /** @return the model's name */
    String model()
    {
        return model;
    }

    /** @return whether the model batches ({@code max_batch_size > 0}) */
    boolean batching()
    {
        return batching;
    }

    /** @return how inputs reach {@code forward} */
    Convention convention()
    {
        return convention;
    }

    /** @return the number of arguments {@code forward} takes, or {@code -1} when its signature is unknown */
    int argumentCount()
    {
        return argumentCount;
    }

    /** @return the configured inputs */
    List<Input> inputs()
    {
        return inputs;
    }

    /** @return the configured outputs */
    List<Output> outputs()
    {
        return outputs;
    }

    /** @return what forward returns element by element, or {@code null} when only the run shows it */
    List<ForwardSignature.Produced> produced()
    {
        return produced;
    }

    /** @return whether any input or output is a string (List[str]) */
    boolean hasStrings()
    {
        return inputs.stream().anyMatch(i -> i.dataType() == DataType.BYTES)
            || outputs.stream().anyMatch(o -> o.dataType() == DataType.BYTES);
    }

    @Override
    public String toString()
    {
        return "inputs " + convention + " " + inputs.stream().map(i -> i.name() + "->" + i.position()).toList()
            + ", outputs " + outputs.stream().map(o -> o.name() + "<-" + o.index()).toList()
            + (produced == null ? "" : ", forward returns " + produced.size()) + ", dims "
            + outputs.stream().map(o -> Arrays.toString(o.dims())).toList();
    }
}
