package io.ingot.benchmarks.onnxjni;

import io.ingot.config.proto.DataType;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInput;
import io.ingot.config.proto.ModelOutput;
import io.ingot.config.proto.ModelSequenceBatching;

import java.util.ArrayList;
import java.util.List;

/**
 * The model inputs and outputs the sequence batcher adds to a configuration's {@code input}/{@code output}: one
 * input per {@code control_input} (its type from the control's {@code *_false_true} values or, for CORRID, its
 * {@code data_type}; dims {@code [1]}), and per {@code state} an input {@code input_name} and an output
 * {@code output_name} (the state's {@code data_type} and {@code dims}). The ONNX graph declares them as ordinary
 * inputs and outputs; the server fills the inputs and takes the state outputs, so the engine binds them like
 * configured tensors. Written as {@link ModelInput}/{@link ModelOutput} so the same bindings and checks serve both.
 */
final class SequenceBatcherTensors
{
    private SequenceBatcherTensors()
    {
    }

    /**
     * @param config a model configuration
     * @return its control inputs (dims {@code [1]}), in configuration order; empty without a sequence batcher
     */
    static List<ModelInput> controls(final ModelConfig config)
    {
        final List<ModelInput> controls = new ArrayList<>();
        if (!config.hasSequenceBatching())
        {
            return controls;
        }
        for (final ModelSequenceBatching.ControlInput input : config.getSequenceBatching().getControlInputList())
        {
            if (input.getControlCount() == 0)
            {
                continue;
            }
            controls.add(ModelInput.newBuilder().setName(input.getName()).setDataType(typeOf(input.getControl(0)))
                .addDims(1).build());
        }
        return controls;
    }

    /**
     * @param config a model configuration
     * @return its state inputs ({@code input_name}, with the state's type and dims)
     */
    static List<ModelInput> stateInputs(final ModelConfig config)
    {
        final List<ModelInput> inputs = new ArrayList<>();
        for (final ModelSequenceBatching.State state : states(config))
        {
            inputs.add(ModelInput.newBuilder().setName(state.getInputName()).setDataType(state.getDataType())
                .addAllDims(state.getDimsList()).build());
        }
        return inputs;
    }

    /**
     * @param config a model configuration
     * @return its state outputs ({@code output_name}, with the state's type and dims)
     */
    static List<ModelOutput> stateOutputs(final ModelConfig config)
    {
        final List<ModelOutput> outputs = new ArrayList<>();
        for (final ModelSequenceBatching.State state : states(config))
        {
            outputs.add(ModelOutput.newBuilder().setName(state.getOutputName()).setDataType(state.getDataType())
                .addAllDims(state.getDimsList()).build());
        }
        return outputs;
    }

    /**
     * @param config a model configuration
     * @return every input the engine binds: the configured ones, the controls, the state inputs
     */
    static List<ModelInput> allInputs(final ModelConfig config)
    {
        final List<ModelInput> all = new ArrayList<>(config.getInputList());
        all.addAll(controls(config));
        all.addAll(stateInputs(config));
        return all;
    }

    /**
     * @param config a model configuration
     * @return every output the engine produces: the configured ones, then the state outputs
     */
    static List<ModelOutput> allOutputs(final ModelConfig config)
    {
        final List<ModelOutput> all = new ArrayList<>(config.getOutputList());
        all.addAll(stateOutputs(config));
        return all;
    }

    private static List<ModelSequenceBatching.State> states(final ModelConfig config)
    {
        return config.hasSequenceBatching() ? config.getSequenceBatching().getStateList() : List.of();
    }

    /** The element type Ingot writes a control in (as {@code SequenceControlInputs} in the runtime does). */
    private static DataType typeOf(final ModelSequenceBatching.Control control)
    {
        if (control.getKind() == ModelSequenceBatching.Control.Kind.CONTROL_SEQUENCE_CORRID)
        {
            return control.getDataType();
        }
        if (control.getInt32FalseTrueCount() > 0)
        {
            return DataType.TYPE_INT32;
        }
        return control.getFp32FalseTrueCount() > 0 ? DataType.TYPE_FP32 : DataType.TYPE_BOOL;
    }
}
