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
}
