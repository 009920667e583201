package io.ingot.config;

import io.ingot.config.proto.DataType;
import io.ingot.config.proto.ModelSequenceBatching;
import io.ingot.config.proto.ModelSequenceBatching.Control;

import java.util.HashSet;
import java.util.Set;

/**
 * Checks of {@code sequence_batching.control_input}, as Triton's {@code GetBooleanSequenceControlProperties} and
 * {@code GetTypedSequenceControlProperties} make them: each control tensor is named and listed once, each control
 * kind appears at most once, boolean controls give exactly one of the false/true pairs with two entries, the
 * correlation-id control gives none.
 */
final class SequenceControls
{
    private SequenceControls()
    {
    }

    /**
     * Checks a START, END or READY control.
     *
     * @param batching the sequence batcher configuration
     * @param m        the model name, for messages
     * @param kind     the control kind
     * @throws ConfigException when the control is malformed
     */
    static void checkBoolean(final ModelSequenceBatching batching, final String m, final Control.Kind kind)
        throws ConfigException
    {
        final String forKind = " for " + kind.name() + " for " + m;
        for (final Control control : controlsOfKind(batching, m, kind))
        {
            final boolean ints = control.getInt32FalseTrueCount() != 0;
            final boolean floats = control.getFp32FalseTrueCount() != 0;
            final boolean bools = control.getBoolFalseTrueCount() != 0;
            if (!ints && !floats && !bools)
            {
                throw ConfigException.invalid("sequence batching must specify either 'int32_false_true', "
                    + "'fp32_false_true' or 'bool_false_true'" + forKind);
            }
            if (ints && floats || ints && bools || floats && bools)
            {
                throw ConfigException.invalid("sequence batching specifies more than one from 'int32_false_true', "
                    + "'fp32_false_true' and 'bool_false_true'" + forKind);
            }
            final String field = ints ? "int32_false_true" : floats ? "fp32_false_true" : "bool_false_true";
            final int entries = ints ? control.getInt32FalseTrueCount()
                : floats ? control.getFp32FalseTrueCount() : control.getBoolFalseTrueCount();
            if (entries != 2)
            {
                throw ConfigException.invalid("sequence batching control '" + field + "' must have exactly 2 entries"
                    + forKind);
            }
        }
    }

    /**
     * Checks the CORRID control.
     *
     * @param batching the sequence batcher configuration
     * @param m        the model name, for messages
     * @param kind     the control kind
     * @return the control's data type, or {@code null} when the control is absent
     * @throws ConfigException when the control is malformed
     */
    static DataType checkTyped(final ModelSequenceBatching batching, final String m, final Control.Kind kind)
        throws ConfigException
    {
        DataType dataType = null;
        for (final Control control : controlsOfKind(batching, m, kind))
        {
            if (control.getInt32FalseTrueCount() > 0 || control.getFp32FalseTrueCount() > 0
                || control.getBoolFalseTrueCount() > 0)
            {
                throw ConfigException.invalid("sequence batching must not specify either 'int32_false_true', "
                    + "'fp32_false_true' or 'bool_false_true' for " + kind.name() + " for " + m);
            }
            dataType = control.getDataType();
        }
        return dataType;
    }

    /** @return the controls of {@code kind} (at most one), after checking the control tensors' names. */
    private static Iterable<Control> controlsOfKind(final ModelSequenceBatching batching, final String m,
        final Control.Kind kind) throws ConfigException
    {
        final Set<String> tensors = new HashSet<>();
        Control found = null;
        for (final ModelSequenceBatching.ControlInput input : batching.getControlInputList())
        {
            if (input.getName().isEmpty())
            {
                throw ConfigException.invalid("sequence batching control tensor must have a name for " + m);
            }
            if (!tensors.add(input.getName()))
            {
                throw ConfigException.invalid("sequence batching control tensor '" + input.getName()
                    + "' is specified for multiple control kinds for " + m);
            }
            for (final Control control : input.getControlList())
            {
                if (control.getKind() != kind)
                {
                    continue;
                }
                if (found != null)
                {
                    throw ConfigException.invalid("sequence batching specifies multiple " + kind.name()
                        + " tensors for " + m);
                }
                found = control;
            }
        }
        return found == null ? Set.of() : Set.of(found);
    }
}
