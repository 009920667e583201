package io.ingot.backend;

import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelSequenceBatching;
import io.ingot.tensor.DataType;

import java.util.ArrayList;
import java.util.List;

/**
 * The tensors the sequence batcher adds to every batch of a model with {@code sequence_batching}, beyond the
 * configured inputs and outputs, as Triton's core adds them to each request for its backends:
 * <ul>
 *   <li>one input per {@code control_input} ({@link Control}): shape {@code [B, 1]} ({@code [1]} without a batch
 *       dimension), each row the configured false or true value of START, END or READY, or the row's correlation ID
 *       for CORRID (a number in the configured {@code data_type}, or a {@code BYTES} element for TYPE_STRING);</li>
 *   <li>per {@code state} ({@link State}): the input {@code input_name}, shape {@code [B, dims...]}, each row the
 *       state its sequence carries (the initial state at START), and the output {@code output_name}, which the engine
 *       must write on every batch: the runtime keeps each row as its sequence's next state.</li>
 * </ul>
 * An engine reads them by name ({@link Batch#input(String)}) like configured inputs and writes the state outputs with
 * {@link Batch#allocateOutput(String, long[])}; {@link Batch#isOutputRequested(String)} is true for a state output on
 * every batch, although no client asks for it. Stateless; the lists it returns are immutable.
 */
public final class SequenceBatchTensors
{
    /**
     * One control input.
     *
     * @param name     the input's name ({@code control_input.name})
     * @param kind     what it carries
     * @param dataType the element type the runtime writes it in: INT32 for {@code int32_false_true}, FP32 for
     *                 {@code fp32_false_true}, BOOL for {@code bool_false_true}, the {@code data_type} for CORRID
     *                 ({@code BYTES} for TYPE_STRING)
     */
    public record Control(String name, ModelSequenceBatching.Control.Kind kind, DataType dataType)
    {
    }

    /**
     * One implicit state.
     *
     * @param inputName  the input that carries it into the model
     * @param outputName the output the model writes its next value to
     * @param dataType   its element type
     * @param dims       its configured dims, after the batch dimension ({@code -1}: any size, which may change from
     *                   request to request)
     */
    public record State(String inputName, String outputName, DataType dataType, List<Long> dims)
    {
        /** Copies the dims. */
        public State
        {
            dims = List.copyOf(dims);
        }

        /** @return the dims as an array (a new one on every call) */
        public long[] dimsArray()
        {
            return dims.stream().mapToLong(Long::longValue).toArray();
        }
    }

    private SequenceBatchTensors()
    {
    }

    /**
     * @param config a model configuration
     * @return its control inputs in configuration order; empty without {@code sequence_batching}
     */
    public static List<Control> controls(final ModelConfig config)
    {
        if (!config.hasSequenceBatching())
        {
            return List.of();
        }
        final List<Control> controls = new ArrayList<>();
        for (final ModelSequenceBatching.ControlInput input : config.getSequenceBatching().getControlInputList())
        {
            if (input.getControlCount() > 0)
            {
                final ModelSequenceBatching.Control control = input.getControl(0);
                controls.add(new Control(input.getName(), control.getKind(), dataType(control)));
            }
        }
        return List.copyOf(controls);
    }

    /**
     * @param config a model configuration
     * @return its implicit states in configuration order; empty without {@code sequence_batching.state}
     */
    public static List<State> states(final ModelConfig config)
    {
        if (!config.hasSequenceBatching())
        {
            return List.of();
        }
        final List<State> states = new ArrayList<>();
        for (final ModelSequenceBatching.State state : config.getSequenceBatching().getStateList())
        {
            states.add(new State(state.getInputName(), state.getOutputName(),
                DataType.fromConfigNumber(state.getDataTypeValue()), state.getDimsList()));
        }
        return List.copyOf(states);
    }

    /**
     * @param control a control of a {@code control_input}
     * @return the element type the runtime writes it in (see {@link Control#dataType()})
     */
    public static DataType dataType(final ModelSequenceBatching.Control control)
    {
        if (control.getKind() == ModelSequenceBatching.Control.Kind.CONTROL_SEQUENCE_CORRID)
        {
            return DataType.fromConfigNumber(control.getDataTypeValue());
        }
        if (control.getInt32FalseTrueCount() > 0)
        {
            return DataType.INT32;
        }
        return control.getFp32FalseTrueCount() > 0 ? DataType.FP32 : DataType.BOOL;
    }
}
