package io.ingot.pytorch;

import io.ingot.config.proto.ModelConfig;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Triton's naming conventions and load-time checks, decided from the configuration and forward's signature. */
class IoPlanTest
{
    private static final ForwardSignature TWO_TENSORS = new ForwardSignature(List.of(
        new ForwardSignature.Argument("x", "Tensor"), new ForwardSignature.Argument("y", "Tensor")),
        "Tuple[Tensor, Tensor]");

    @Test
    void forwardArgumentNamesWinOverIndexes() throws Exception
    {
        final IoPlan plan = plan("""
            input { name: "y" data_type: TYPE_FP32 dims: [1] }
            input { name: "x" data_type: TYPE_FP32 dims: [1] }
            output { name: "OUT__1" data_type: TYPE_FP32 dims: [1] }
            output { name: "OUT__0" data_type: TYPE_FP32 dims: [1] }
            """, TWO_TENSORS);
        assertEquals(IoPlan.Convention.FORWARD_ARGUMENT, plan.convention());
        assertEquals(List.of(1, 0), plan.inputs().stream().map(IoPlan.Input::position).toList());
        assertEquals(List.of(1, 0), plan.outputs().stream().map(IoPlan.Output::index).toList());
    }

    @Test
    void indexesAfterTheDoubleUnderscoreAreArgumentPositions() throws Exception
    {
        final IoPlan plan = plan("""
            input { name: "B__1" data_type: TYPE_FP32 dims: [1] }
            input { name: "A__0" data_type: TYPE_FP32 dims: [1] }
            output { name: "SUM" data_type: TYPE_FP32 dims: [1] }
            output { name: "DIFF" data_type: TYPE_FP32 dims: [1] }
            """, TWO_TENSORS);
        assertEquals(IoPlan.Convention.NAMED_INDEX, plan.convention());
        assertEquals(List.of(1, 0), plan.inputs().stream().map(IoPlan.Input::position).toList());
        assertEquals(List.of(0, 1), plan.outputs().stream().map(IoPlan.Output::index).toList());
    }

    @Test
    void otherNamesFollowConfigurationOrder() throws Exception
    {
        final IoPlan plan = plan("""
            input { name: "INPUT0" data_type: TYPE_FP32 dims: [1] }
            input { name: "INPUT__one" data_type: TYPE_FP32 dims: [1] }
            output { name: "OUTPUT0" data_type: TYPE_FP32 dims: [1] }
            """, TWO_TENSORS);
        assertEquals(IoPlan.Convention.STRICT_CONFIG_ORDERING, plan.convention());
        assertEquals(List.of(0, 1), plan.inputs().stream().map(IoPlan.Input::position).toList());
    }

    @Test
    void withoutASignatureOnlyTheConfigurationIsChecked() throws Exception
    {
        final IoPlan plan = plan("""
            input { name: "INPUT__1" data_type: TYPE_FP32 dims: [1] }
            input { name: "INPUT__0" data_type: TYPE_FP32 dims: [1] }
            output { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [1] }
            """, null);
        assertEquals(List.of(1, 0), plan.inputs().stream().map(IoPlan.Input::position).toList());
        assertEquals(-1, plan.argumentCount());
        final String message = assertThrows(ModelLoadException.class, () -> plan("""
            input { name: "INPUT__0" data_type: TYPE_FP32 dims: [1] }
            input { name: "INPUT__5" data_type: TYPE_FP32 dims: [1] }
            output { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [1] }
            """, null)).getMessage();
        assertEquals("model 'm' version 1: input 'INPUT__5' goes to forward's argument 5, but the configuration has 2"
            + " inputs", message);
    }

    @Test
    void twoInputsOnOneArgumentAreRefused()
    {
        final String message = assertThrows(ModelLoadException.class, () -> plan("""
            input { name: "A__0" data_type: TYPE_FP32 dims: [1] }
            input { name: "B__0" data_type: TYPE_FP32 dims: [1] }
            output { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [1] }
            """, TWO_TENSORS)).getMessage();
        assertEquals("model 'm' version 1: inputs 'A__0' and 'B__0' both go to forward's argument 0", message);
    }

    @Test
    void argumentsOfOtherKindsAreTritonsError()
    {
        final ForwardSignature withInt = new ForwardSignature(List.of(new ForwardSignature.Argument("x", "Tensor"),
            new ForwardSignature.Argument("k", "int")), "Tensor");
        final String message = assertThrows(ModelLoadException.class, () -> plan("""
            input { name: "x" data_type: TYPE_FP32 dims: [1] }
            input { name: "k" data_type: TYPE_INT64 dims: [1] }
            output { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [1] }
            """, withInt)).getMessage();
        assertEquals("model 'm' version 1: An input of type 'int' was detected in the model. Only a single input of"
            + " type Dict(str, Tensor) or input(s) of type Tensor are supported.", message);
        final ForwardSignature twoDicts = new ForwardSignature(List.of(
            new ForwardSignature.Argument("a", "Dict[str, Tensor]"),
            new ForwardSignature.Argument("b", "Dict[str, Tensor]")), "Tensor");
        assertTrue(assertThrows(ModelLoadException.class, () -> plan("""
            input { name: "a" data_type: TYPE_FP32 dims: [1] }
            output { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [1] }
            """, twoDicts)).getMessage().contains("Multiple inputs of kind DictType were detected. Only a single input"
            + " of type Dict(str, Tensor) is supported."));
    }

    @Test
    void stringsNeedOneDimensionAndInferenceMode()
    {
        final ForwardSignature strings = new ForwardSignature(List.of(new ForwardSignature.Argument("s",
            "List[str]")), "List[str]");
        final String message = assertThrows(ModelLoadException.class, () -> IoPlan.of("m", 1, TestModels.config("""
            name: "m" backend: "pytorch" max_batch_size: 4
            input { name: "s" data_type: TYPE_STRING dims: [2] }
            output { name: "OUTPUT__0" data_type: TYPE_STRING dims: [1] reshape { shape: [] } }
            """), strings, false)).getMessage();
        assertTrue(message.contains("Triton only supports 1 dimensional List of String as input for 's' for model 'm'"
            + " (with max_batch_size > 0, give dims [1] and reshape { shape: [ ] })"), message);
        assertTrue(message.contains("output 'OUTPUT__0' is TYPE_STRING, which needs INFERENCE_MODE true here"),
            message);
    }

    @Test
    void whatTheRuntimeDoesNotPassIsRefused()
    {
        final String message = assertThrows(ModelLoadException.class, () -> plan("""
            input { name: "x" data_type: TYPE_FP32 dims: [1] optional: true }
            input { name: "y" data_type: TYPE_FP32 dims: [1] }
            output { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [1] }
            batch_input { kind: BATCH_ELEMENT_COUNT target_name: "count" data_type: TYPE_FP32 source_input: "x" }
            """, TWO_TENSORS)).getMessage();
        assertTrue(message.contains("batch_input is not supported by Ingot's PyTorch backend"), message);
        assertTrue(message.contains("input 'x' is optional, but forward takes every argument on every call"),
            message);
    }

    private static IoPlan plan(final String io, final ForwardSignature signature) throws ModelLoadException
    {
        final ModelConfig config = TestModels.config("name: 'm' backend: 'pytorch' max_batch_size: 2 " + io);
        return IoPlan.of("m", 1, config, signature, true);
    }
}
