package io.ingot.pytorch;

import io.ingot.backend.SequenceBatchTensors;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelSequenceBatching;
import io.ingot.tensor.DataType;

import java.util.List;
import java.util.stream.IntStream;

/**
 * Where the sequence batcher's tensors ({@link SequenceBatchTensors}) meet {@code forward}, by the rules of Triton's
 * PyTorch backend ({@code ValidateBooleanSequenceControl}, {@code ValidateTypedSequenceControl},
 * {@code GetNamingConvention}, {@code ValidateInputs}/{@code ValidateOutputs} for states):
 * <ul>
 *   <li>every control input is named {@code <name>__<index>} and passed as argument {@code index}, whatever the
 *       configured inputs' convention ("input 'X' does not follow &lt;name&gt;__&lt;index&gt; naming convention.");
 *       with a single {@code Dict[str, Tensor]} argument it is an entry of the dict under its name;</li>
 *   <li>a CORRID of a type libtorch has no tensor for (TYPE_UINT64, TYPE_UINT32) is refused with Triton's "input 'X'
 *       type 'TYPE_UINT64' is not supported by PyTorch."; a TYPE_STRING CORRID, which Triton refuses the same way,
 *       is passed here as a {@code List[str]} of one ID per batch row, as STRING inputs are;</li>
 *   <li>with {@code state}, the configured inputs and outputs must all follow {@code <name>__<index>} (configured
 *       inputs named after {@code forward}'s arguments do not), and so must each state's {@code input_name} (argument
 *       {@code index}) and {@code output_name} (element {@code index} of the result).</li>
 * </ul>
 * Stateless.
 */
final class SequenceIo
{
    private SequenceIo()
    {
    }

    /**
     * Adds the control inputs to {@code inputs}.
     *
     * @param model         the model's name
     * @param config        its configuration
     * @param inferenceMode whether it runs in inference mode (a STRING CORRID needs it, as every List[str] does)
     * @param inputs        where the controls are added
     * @param problems      where disagreements are added
     */
    static void addControls(final String model, final ModelConfig config, final boolean inferenceMode,
        final List<IoPlan.Input> inputs, final List<String> problems)
    {
        for (final SequenceBatchTensors.Control control : SequenceBatchTensors.controls(config))
        {
            final String name = control.name();
            if (!IoPlan.isNamedIndex(name))
            {
                problems.add("input '" + name + "' does not follow <name>__<index> naming convention. (Triton's"
                    + " PyTorch backend passes sequence control " + control.kind() + " as forward's argument"
                    + " <index>)");
                continue;
            }
            final DataType type = control.dataType();
            if (type == DataType.BYTES && !inferenceMode)
            {
                problems.add("input '" + name + "' (CONTROL_SEQUENCE_CORRID) is TYPE_STRING, which needs"
                    + " INFERENCE_MODE true here (DJL's JNI runs List[str] arguments only in inference mode)");
            }
            else if (type != DataType.BYTES && !TorchTypes.isTensorType(type))
            {
                problems.add("input '" + name + "' type '" + TorchTypes.configName(type) + "' is not supported by"
                    + " PyTorch. (model '" + model + "': libtorch has no " + TorchTypes.configName(type) + " tensors"
                    + " through DJL's JNI, as Triton's backend has none; give "
                    + ModelSequenceBatching.Control.Kind.CONTROL_SEQUENCE_CORRID + " data_type TYPE_INT64 or"
                    + " TYPE_INT32, or TYPE_STRING for a List[str])");
            }
            inputs.add(new IoPlan.Input(name, type, IoPlan.index(name), null));
        }
    }

    /**
     * Adds each state's input to {@code inputs} and its output to {@code outputs} (replacing a configured output of
     * that name, which a client may ask for to see the state).
     *
     * @param model             the model's name
     * @param config            its configuration
     * @param convention        how the configured inputs reach forward
     * @param outputsNamedIndex whether every configured output follows {@code <name>__<index>}
     * @param inputs            where the state inputs are added
     * @param outputs           where the state outputs are added
     * @param problems          where disagreements are added
     */
    static void addStates(final String model, final ModelConfig config, final IoPlan.Convention convention,
        final boolean outputsNamedIndex, final List<IoPlan.Input> inputs, final List<IoPlan.Output> outputs,
        final List<String> problems)
    {
        final List<SequenceBatchTensors.State> states = SequenceBatchTensors.states(config);
        if (states.isEmpty())
        {
            return;
        }
        // A dict argument takes every input by name, states too (Triton then checks the outputs' names only).
        if (convention == IoPlan.Convention.FORWARD_ARGUMENT || convention == IoPlan.Convention.STRICT_CONFIG_ORDERING
            || !outputsNamedIndex)
        {
            problems.add("PyTorch model '" + model + "' is using sequence batching with state but not all inputs and"
                + " outputs follow the <name>__<index> naming convention. (inputs " + describe(convention)
                + (outputsNamedIndex ? "" : ", outputs in configuration order") + ")");
        }
        for (final SequenceBatchTensors.State state : states)
        {
            boolean named = true;
            for (final String name : List.of(state.inputName(), state.outputName()))
            {
                if (!IoPlan.isNamedIndex(name))
                {
                    problems.add("PyTorch model '" + model + "' is using sequence batching with state but state '"
                        + name + "' does not follow the <name>__<index> naming convention. ");
                    named = false;
                }
            }
            final DataType type = state.dataType();
            if (type == DataType.BYTES)
            {
                problems.add("state '" + state.inputName() + "' of model '" + model + "' is TYPE_STRING: Ingot"
                    + " carries implicit state as fixed-size rows; give the state a numeric or boolean data_type");
                continue;
            }
            if (type == null || !TorchTypes.isTensorType(type))
            {
                problems.add("unsupported datatype " + TorchTypes.configName(type) + " for input state '"
                    + state.inputName() + "' for model '" + model + "'");
                continue;
            }
            if (!named)
            {
                continue;
            }
            inputs.add(new IoPlan.Input(state.inputName(), type, IoPlan.index(state.inputName()), null));
            final IoPlan.Output output = new IoPlan.Output(state.outputName(), type, IoPlan.index(state.outputName()),
                state.dimsArray(), null, state.inputName());
            final int listed = IntStream.range(0, outputs.size())
                .filter(i -> outputs.get(i).name().equals(state.outputName())).findFirst().orElse(-1);
            if (listed < 0)
            {
                outputs.add(output);
            }
            else
            {
                // Triton lets a client ask for the state output by listing it as an output too: one tensor, the state.
                outputs.set(listed, output);
            }
        }
    }

    private static String describe(final IoPlan.Convention convention)
    {
        return switch (convention)
        {
            case FORWARD_ARGUMENT -> "named after forward's arguments";
            case DICT -> "in forward's one Dict[str, Tensor] argument";
            case STRICT_CONFIG_ORDERING -> "in configuration order";
            case NAMED_INDEX -> "<name>__<index>";
        };
    }
}
