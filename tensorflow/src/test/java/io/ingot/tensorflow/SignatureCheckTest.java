package io.ingot.tensorflow;

import io.ingot.tensorflow.savedmodel.ServingSignature;
import io.ingot.tensorflow.savedmodel.SignatureTensor;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A configuration against a signature, with the messages of Triton's TensorFlow backend. */
class SignatureCheckTest
{
    private static SignatureTensor tensor(final String name, final int type, final long... dims)
    {
        return new SignatureTensor(name, name + ":0", type, dims, true);
    }

    private static final ServingSignature SIMPLE = new ServingSignature("serve", "serving_default",
        List.of(tensor("INPUT0", 1, -1, 16), tensor("INPUT1", 1, -1, 16)),
        List.of(tensor("OUTPUT0", 1, -1, 16), tensor("OUTPUT1", 1, -1, 16)));

    private static List<String> check(final String config)
    {
        return SignatureCheck.problems(TestModels.config(config), SIMPLE);
    }

    private static final String OUTPUTS = " output [{ name: 'OUTPUT0' data_type: TYPE_FP32 dims: [16] }]";

    @Test
    void theArticlesConfigurationAgrees()
    {
        assertEquals(List.of(), check(TestSavedModels.addSubConfig("my_model")));
    }

    @Test
    void dimsThatDisagreeAreTritonsMessage()
    {
        assertEquals(List.of("model 'm', tensor 'INPUT0': the model expects 2 dimensions (shape [-1,16]) but the"
            + " model configuration specifies 2 dimensions (an initial batch dimension because max_batch_size > 0"
            + " followed by the explicit tensor shape, making complete shape [-1,8])"), check("name: 'm'"
            + " max_batch_size: 8 input [{ name: 'INPUT0' data_type: TYPE_FP32 dims: [8] },"
            + " { name: 'INPUT1' data_type: TYPE_FP32 dims: [16] }]" + OUTPUTS));
    }

    @Test
    void withoutBatchingTheBatchDimensionMustBeConfigured()
    {
        assertEquals(List.of("model 'm', tensor 'INPUT0': the model expects 2 dimensions (shape [-1,16]) but the"
            + " model configuration specifies 1 dimensions (shape [16])",
            "model 'm', tensor 'INPUT1': the model expects 2 dimensions (shape [-1,16]) but the model configuration"
            + " specifies 1 dimensions (shape [16])",
            "model 'm', tensor 'OUTPUT0': the model expects 2 dimensions (shape [-1,16]) but the model configuration"
            + " specifies 1 dimensions (shape [16])"), check("name: 'm' max_batch_size: 0"
            + " input [{ name: 'INPUT0' data_type: TYPE_FP32 dims: [16] },"
            + " { name: 'INPUT1' data_type: TYPE_FP32 dims: [16] }]" + OUTPUTS));
        assertEquals(List.of(), check("name: 'm' max_batch_size: 0"
            + " input [{ name: 'INPUT0' data_type: TYPE_FP32 dims: [3, 16] },"
            + " { name: 'INPUT1' data_type: TYPE_FP32 dims: [3, 16] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_FP32 dims: [-1, 16] }]"));
    }

    @Test
    void typesNamesAndCountsThatDisagree()
    {
        assertEquals(List.of("unable to load model 'm', configuration expects datatype TYPE_INT32 for input"
            + " 'INPUT0', model provides TYPE_FP32", "unexpected inference input 'INPUT2', allowed inputs are: INPUT0,"
            + " INPUT1", "unexpected inference output 'SUM', allowed outputs are: OUTPUT0, OUTPUT1"),
            check("name: 'm' max_batch_size: 8 input [{ name: 'INPUT0' data_type: TYPE_INT32 dims: [16] },"
                + " { name: 'INPUT2' data_type: TYPE_FP32 dims: [16] }]"
                + " output [{ name: 'SUM' data_type: TYPE_FP32 dims: [16] }]"));
        assertEquals(List.of("unable to load model 'm', configuration expects 1 inputs, model provides 2 (the"
            + " signature's inputs are INPUT0, INPUT1)"), check("name: 'm' max_batch_size: 8"
            + " input [{ name: 'INPUT0' data_type: TYPE_FP32 dims: [16] }]" + OUTPUTS));
    }

    @Test
    void outputDimsMustMatchExactlyAndInputsOnlyWhereTheModelFixesThem()
    {
        assertEquals(List.of("model 'm', tensor 'OUTPUT0': the model expects 2 dimensions (shape [-1,16]) but the"
            + " model configuration specifies 2 dimensions (an initial batch dimension because max_batch_size > 0"
            + " followed by the explicit tensor shape, making complete shape [-1,-1])"), check("name: 'm'"
            + " max_batch_size: 8 input [{ name: 'INPUT0' data_type: TYPE_FP32 dims: [16] },"
            + " { name: 'INPUT1' data_type: TYPE_FP32 dims: [16] }]"
            + " output [{ name: 'OUTPUT0' data_type: TYPE_FP32 dims: [-1] }]"));
        final ServingSignature open = new ServingSignature("serve", "serving_default",
            List.of(tensor("x", 1, -1, -1)), List.of(tensor("y", 1, -1, -1)));
        assertEquals(List.of(), SignatureCheck.problems(TestModels.config("name: 'm' max_batch_size: 2"
            + " input [{ name: 'x' data_type: TYPE_FP32 dims: [7] }]"
            + " output [{ name: 'y' data_type: TYPE_FP32 dims: [-1] }]"), open), "an input may fix what the model"
            + " leaves open");
        assertEquals(1, SignatureCheck.problems(TestModels.config("name: 'm' max_batch_size: 2"
            + " input [{ name: 'x' data_type: TYPE_FP32 dims: [7] }]"
            + " output [{ name: 'y' data_type: TYPE_FP32 dims: [7] }]"), open).size(), "an output may not");
    }

    /** x FP32 [-1, 4], START INT32 [-1, s...], STATE_IN/STATE_OUT FP32 [-1, -1]; y FP32 [-1, 4]. */
    private static ServingSignature sequence(final long... startDims)
    {
        final long[] start = new long[startDims.length + 1];
        start[0] = -1;
        System.arraycopy(startDims, 0, start, 1, startDims.length);
        return new ServingSignature("serve", "serving_default",
            List.of(tensor("x", 1, -1, 4), tensor("START", 3, start), tensor("STATE_IN", 1, -1, -1)),
            List.of(tensor("y", 1, -1, 4), tensor("STATE_OUT", 1, -1, -1)));
    }

    private static final String SEQUENCE = "name: 'm' max_batch_size: 2"
        + " input [{ name: 'x' data_type: TYPE_FP32 dims: [4] }] output [{ name: 'y' data_type: TYPE_FP32 dims: [4] }]"
        + " sequence_batching { control_input [{ name: 'START' control [{ kind: CONTROL_SEQUENCE_START"
        + " int32_false_true: [0, 1] }] }] state [{ input_name: 'STATE_IN' output_name: 'STATE_OUT'"
        + " data_type: TYPE_FP32 dims: [3] }] }";

    @Test
    void controlsMustBeShapeOneExactlyAndStatesMayFixWhatTheModelLeavesOpen()
    {
        assertEquals(List.of(), SignatureCheck.problems(TestModels.config(SEQUENCE), sequence(1)));
        // Triton compares a control's shape exactly: [-1, -1] does not do for [-1, 1].
        assertEquals(List.of("unable to load model 'm', sequence control 'START': model 'm', tensor 'START': the model"
            + " expects 2 dimensions (shape [-1,-1]) but the model configuration specifies 2 dimensions (an initial"
            + " batch dimension because max_batch_size > 0 followed by the explicit tensor shape, making complete"
            + " shape [-1,1])"), SignatureCheck.problems(TestModels.config(SEQUENCE), sequence(-1)));
        assertEquals(List.of("unexpected inference output 'STATE_NEXT', allowed outputs are: y, STATE_OUT (it is the"
            + " output_name of a sequence_batching state)"), SignatureCheck.problems(TestModels.config(
            SEQUENCE.replace("output_name: 'STATE_OUT'", "output_name: 'STATE_NEXT'")), sequence(1)));
        // The controls and the state input count among the inputs the signature must have, and no more.
        final ServingSignature extra = new ServingSignature("serve", "serving_default", List.of(tensor("x", 1, -1, 4),
            tensor("START", 3, -1, 1), tensor("STATE_IN", 1, -1, -1), tensor("z", 1, -1, 4)),
            sequence(1).outputs());
        assertEquals(List.of("unable to load model 'm', configuration expects 3 inputs, model provides 4 (the"
            + " signature's inputs are x, START, STATE_IN, z)"), SignatureCheck.problems(TestModels.config(SEQUENCE),
            extra));
    }
}
