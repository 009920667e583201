package io.ingot.backend.builtin;

import io.ingot.backend.BatchInput;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelSequenceBatching;
import io.ingot.tensor.DataType;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * What the built-in sequence backends need of a model: its one INT32 data input and output, and the names of the
 * START and READY control tensors the sequence batcher fills (INT32 {@code int32_false_true: [0, 1]}, as in Triton's
 * {@code simple_sequence}). Immutable.
 *
 * @param input  the data input's name
 * @param output the output's name
 * @param start  the START control tensor's name
 * @param ready  the READY control tensor's name
 * @param end    the END control tensor's name, or {@code null} when the model has none
 * @param corrid the CORRID control tensor's name when it is TYPE_UINT64, else {@code null}
 */
record SequenceTensors(String input, String output, String start, String ready, String end, String corrid)
{
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /**
     * @param config  the model's configuration
     * @param backend the backend's name, for messages
     * @return the tensors
     * @throws IllegalArgumentException when the model does not have the shape these backends compute on
     */
    static SequenceTensors of(final ModelConfig config, final String backend)
    {
        final String model = config.getName();
        if (!config.hasSequenceBatching())
        {
            throw new IllegalArgumentException("model '" + model + "' (backend '" + backend + "'): needs "
                + "sequence_batching with START and READY control inputs");
        }
        if (config.getInputCount() != 1 || config.getOutputCount() != 1
            || config.getInput(0).getDataType() != config.getOutput(0).getDataType()
            || DataType.fromConfigNumber(config.getInput(0).getDataTypeValue()) != DataType.INT32)
        {
            throw new IllegalArgumentException("model '" + model + "' (backend '" + backend + "'): needs one "
                + "TYPE_INT32 input and one TYPE_INT32 output; has " + config.getInputCount() + " inputs and "
                + config.getOutputCount() + " outputs");
        }
        return new SequenceTensors(config.getInput(0).getName(), config.getOutput(0).getName(),
            control(config, backend, ModelSequenceBatching.Control.Kind.CONTROL_SEQUENCE_START, true),
            control(config, backend, ModelSequenceBatching.Control.Kind.CONTROL_SEQUENCE_READY, true),
            control(config, backend, ModelSequenceBatching.Control.Kind.CONTROL_SEQUENCE_END, false),
            corrid(config));
    }

    private static String corrid(final ModelConfig config)
    {
        for (final ModelSequenceBatching.ControlInput input : config.getSequenceBatching().getControlInputList())
        {
            for (final ModelSequenceBatching.Control control : input.getControlList())
            {
                if (control.getKind() == ModelSequenceBatching.Control.Kind.CONTROL_SEQUENCE_CORRID)
                {
                    // Only a numeric ID enters the sum; a string CORRID (sequence(string_id)) is left out of it.
                    return DataType.fromConfigNumber(control.getDataTypeValue()) == DataType.UINT64 ? input.getName()
                        : null;
                }
            }
        }
        return null;
    }

    private static String control(final ModelConfig config, final String backend,
        final ModelSequenceBatching.Control.Kind kind, final boolean required)
    {
        for (final ModelSequenceBatching.ControlInput input : config.getSequenceBatching().getControlInputList())
        {
            for (final ModelSequenceBatching.Control control : input.getControlList())
            {
                if (control.getKind() == kind)
                {
                    if (control.getInt32FalseTrueCount() != 2 || control.getInt32FalseTrue(0) != 0
                        || control.getInt32FalseTrue(1) != 1)
                    {
                        throw new IllegalArgumentException("model '" + config.getName() + "' (backend '" + backend
                            + "'): control '" + input.getName() + "' must be int32_false_true: [0, 1]");
                    }
                    return input.getName();
                }
            }
        }
        if (!required)
        {
            return null;
        }
        throw new IllegalArgumentException("model '" + config.getName() + "' (backend '" + backend + "'): "
            + "sequence_batching has no " + kind + " control input");
    }

    /**
     * @param tensor a batch input of INT32 elements
     * @param index  an element index
     * @return the element
     */
    static int element(final BatchInput tensor, final long index)
    {
        return tensor.data().get(INT, index * 4);
    }

    /**
     * @param tensor a batch input of UINT64 elements
     * @param index  an element index
     * @return the element's low 32 bits, as an INT32 model computes with it
     */
    static int lowBits(final BatchInput tensor, final long index)
    {
        return (int) tensor.data().get(LONG, index * 8);
    }

    /**
     * @param data  INT32 output memory
     * @param index an element index
     * @param value the element
     */
    static void set(final MemorySegment data, final long index, final int value)
    {
        data.set(INT, index * 4, value);
    }
}
