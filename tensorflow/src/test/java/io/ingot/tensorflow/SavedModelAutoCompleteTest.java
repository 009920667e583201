package io.ingot.tensorflow;

import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInput;
import io.ingot.config.proto.ModelOutput;
import io.ingot.tensorflow.savedmodel.ServingSignature;
import io.ingot.tensorflow.savedmodel.SignatureTensor;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Triton's TensorFlow auto-complete rules, on signatures built in memory. */
class SavedModelAutoCompleteTest
{
    private static SignatureTensor tensor(final String name, final int type, final long... dims)
    {
        return new SignatureTensor(name, name + ":0", type, dims, true);
    }

    private static final ServingSignature BATCHING = new ServingSignature("serve", "serving_default",
        List.of(tensor("INPUT0", 1, -1, 16), tensor("INPUT1", 1, -1, 16)),
        List.of(tensor("OUTPUT0", 1, -1, 16), tensor("OUTPUT1", 1, -1, 16)));

    private static final ServingSignature FIXED = new ServingSignature("serve", "serving_default",
        List.of(tensor("image", 4, 2, 3)), List.of(tensor("score", 2, 2)));

    private static ModelConfig complete(final String config, final ServingSignature signature)
    {
        return SavedModelAutoComplete.complete(TestModels.config(config), signature);
    }

    @Test
    void aBareConfigurationGetsEverythingFromTheSignature()
    {
        final ModelConfig completed = complete("name: 'm' platform: 'tensorflow_savedmodel'", BATCHING);
        assertEquals(SavedModelAutoComplete.DEFAULT_MAX_BATCH_SIZE, completed.getMaxBatchSize());
        assertTrue(completed.hasDynamicBatching());
        assertEquals(List.of("INPUT0", "INPUT1"), completed.getInputList().stream().map(ModelInput::getName).toList());
        assertEquals(List.of(16L), completed.getInput(0).getDimsList());
        assertEquals(io.ingot.config.proto.DataType.TYPE_FP32, completed.getInput(0).getDataType());
        assertEquals(List.of("OUTPUT0", "OUTPUT1"),
            completed.getOutputList().stream().map(ModelOutput::getName).toList());
    }

    @Test
    void aSignatureWithoutABatchDimensionKeepsMaxBatchSizeZero()
    {
        final ModelConfig completed = complete("name: 'm'", FIXED);
        assertEquals(0, completed.getMaxBatchSize());
        assertFalse(completed.hasDynamicBatching());
        assertEquals(List.of(2L, 3L), completed.getInput(0).getDimsList());
        assertEquals(io.ingot.config.proto.DataType.TYPE_UINT8, completed.getInput(0).getDataType());
        assertEquals(io.ingot.config.proto.DataType.TYPE_FP64, completed.getOutput(0).getDataType());
    }

    @Test
    void maxBatchSizeOnASignatureThatCannotBatchIsTritonsError()
    {
        final IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
            () -> complete("name: 'm' max_batch_size: 8", FIXED));
        assertEquals("unable to autofill for 'm', configuration specified max-batch 8 but model signature does not"
            + " support batching", failure.getMessage());
    }

    @Test
    void configuredDimsAsLongAsTheSignatureMeanNoBatching()
    {
        final ModelConfig completed = complete("name: 'm' input [{ name: 'INPUT0' dims: [-1, 16] }]", BATCHING);
        assertEquals(0, completed.getMaxBatchSize());
        assertEquals(io.ingot.config.proto.DataType.TYPE_FP32, completed.getInput(0).getDataType());
        assertEquals(List.of(-1L, 16L), completed.getInput(1).getDimsList(), "INPUT1 appended with the batch"
            + " dimension kept");
    }

    @Test
    void contradictingHintsAreRefused()
    {
        final IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
            () -> complete("name: 'm' input [{ name: 'INPUT0' dims: [16] }, { name: 'INPUT1' dims: [-1, 16] }]",
                BATCHING));
        assertEquals("unable to autofill for 'm', model tensor configurations are contradicting each other in terms"
            + " of whether batching is supported", failure.getMessage());
    }

    @Test
    void listedOutputsAreFilledAndTheOthersLeftOut()
    {
        final ModelConfig completed = complete("name: 'm' max_batch_size: 2 dynamic_batching { }"
            + " output [{ name: 'OUTPUT1' }]", BATCHING);
        assertEquals(1, completed.getOutputCount());
        assertEquals(List.of(16L), completed.getOutput(0).getDimsList());
        assertEquals(io.ingot.config.proto.DataType.TYPE_FP32, completed.getOutput(0).getDataType());
        assertEquals(2, completed.getMaxBatchSize());
    }

    @Test
    void aBatchedVectorBecomesDimsOneWithAnEmptyReshape()
    {
        final ServingSignature vector = new ServingSignature("serve", "serving_default",
            List.of(tensor("x", 3, -1)), List.of(tensor("y", 3, -1)));
        final ModelConfig completed = complete("name: 'm'", vector);
        assertEquals(4, completed.getMaxBatchSize());
        assertEquals(List.of(1L), completed.getInput(0).getDimsList());
        assertTrue(completed.getInput(0).hasReshape());
        assertEquals(0, completed.getInput(0).getReshape().getShapeCount());
    }

    @Test
    void aTensorOfUnknownShapeNeedsConfiguredDims()
    {
        final ServingSignature unknown = new ServingSignature("serve", "serving_default",
            List.of(new SignatureTensor("x", "x:0", 1, new long[0], false)), List.of(tensor("y", 1, -1, 2)));
        final IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
            () -> complete("name: 'm'", unknown));
        assertEquals("Unable to autofill for 'm': the rank of model tensor 'x' is 0 and dimensions are not defined",
            failure.getMessage());
        final ModelConfig completed = complete("name: 'm' input [{ name: 'x' dims: [2] }]", unknown);
        assertEquals(List.of(2L), completed.getInput(0).getDimsList());
    }

    @Test
    void controlsAndStatesAreNotAddedAsInputsOrOutputs()
    {
        final ServingSignature sequence = new ServingSignature("serve", "serving_default",
            List.of(tensor("x", 1, -1, 4), tensor("START", 3, -1, 1), tensor("STATE_IN", 1, -1, 4)),
            List.of(tensor("y", 1, -1, 4), tensor("STATE_OUT", 1, -1, 4)));
        final ModelConfig completed = complete("name: 'm' max_batch_size: 2 sequence_batching { control_input"
            + " [{ name: 'START' control [{ kind: CONTROL_SEQUENCE_START int32_false_true: [0, 1] }] }] state"
            + " [{ input_name: 'STATE_IN' output_name: 'STATE_OUT' data_type: TYPE_FP32 dims: [4] }] }", sequence);
        assertEquals(List.of("x"), completed.getInputList().stream().map(ModelInput::getName).toList());
        assertEquals(List.of("y"), completed.getOutputList().stream().map(ModelOutput::getName).toList());
    }
}
