package io.ingot.pytorch;

import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where the sequence batcher's controls and states meet {@code forward}, and what is refused, with the texts of
 * Triton's PyTorch backend; decided from the configuration and the signature, without libtorch.
 */
class SequenceIoTest
{
    /** {@code forward(delay_itrs, seq_start, seq_id, seq_state_in)}: Triton's implicit_state_model. */
    private static final ForwardSignature IMPLICIT_STATE = signature("Tuple[Tensor, Tensor]", "delay_itrs:Tensor",
        "seq_start:Tensor", "seq_id:Tensor", "seq_state_in:Tensor");

    /** Triton's implicit_state_model configuration, as in qa/L0_request_cancellation. */
    private static final String TRITONS = """
        name: "m" backend: "pytorch" max_batch_size: 1
        input { name: "DELAY_ITRS__0" data_type: TYPE_INT64 dims: [ 1 ] }
        output { name: "DUMMY_OUT__0" data_type: TYPE_INT64 dims: [ 1 ] }
        sequence_batching {
          oldest { max_candidate_sequences: 1 }
          control_input [
            { name: "SEQ_START__1" control { kind: CONTROL_SEQUENCE_START fp32_false_true: [ 0, 1 ] } },
            { name: "SEQ_ID__2" control { kind: CONTROL_SEQUENCE_CORRID data_type: TYPE_INT64 } } ]
          state { input_name: "SEQ_STATE_IN__3" output_name: "SEQ_STATE_OUT__1" data_type: TYPE_INT64 dims: 1
            initial_state { name: "initial_state" data_type: TYPE_INT64 dims: 1 zero_data: true } }
        }
        """;

    private static ForwardSignature signature(final String returns, final String... arguments)
    {
        return new ForwardSignature(Arrays.stream(arguments).map(argument -> argument.split(":"))
            .map(parts -> new ForwardSignature.Argument(parts[0], parts[1])).toList(), returns);
    }

    private static IoPlan plan(final String config, final ForwardSignature signature) throws ModelLoadException
    {
        return IoPlan.of("m", 1, TestModels.config(config), signature, true);
    }

    private static String refusal(final String config, final ForwardSignature signature)
    {
        return assertThrows(ModelLoadException.class, () -> plan(config, signature)).getMessage();
    }

    @Test
    void tritonsImplicitStateModelTakesControlsAndStateAtTheirIndexes() throws Exception
    {
        final IoPlan plan = plan(TRITONS, IMPLICIT_STATE);
        assertEquals(List.of("DELAY_ITRS__0->0", "SEQ_START__1->1", "SEQ_ID__2->2", "SEQ_STATE_IN__3->3"),
            plan.inputs().stream().map(input -> input.name() + "->" + input.position()).toList());
        assertEquals(List.of("FP32", "INT64", "INT64"), plan.inputs().subList(1, 4).stream()
            .map(input -> input.dataType().name()).toList());
        final IoPlan.Output state = plan.outputs().get(1);
        assertEquals("SEQ_STATE_OUT__1", state.name());
        assertEquals(1, state.index());
        assertEquals("SEQ_STATE_IN__3", state.state());
        assertArrayEquals(new long[] {1}, state.dims());
        assertNull(plan.outputs().getFirst().state());
    }

    @Test
    void controlsOfEveryKindAndCorridTypeGoToTheirArguments() throws Exception
    {
        for (final String corrid : List.of("TYPE_INT64", "TYPE_INT32", "TYPE_STRING"))
        {
            final String type = corrid.equals("TYPE_STRING") ? "List[str]" : "Tensor";
            final IoPlan plan = plan(controls(corrid), signature("Tensor", "x:Tensor", "end:Tensor", "start:Tensor",
                "ready:Tensor", "id:" + type));
            assertEquals(List.of("INPUT__0->0", "START__2->2", "END__1->1", "READY__3->3", "CORRID__4->4"),
                plan.inputs().stream().map(input -> input.name() + "->" + input.position()).toList(), corrid);
            assertEquals(List.of("INT32", "FP32", "BOOL", corrid.equals("TYPE_STRING") ? "BYTES"
                : corrid.substring(5)), plan.inputs().subList(1, 5).stream().map(i -> i.dataType().name()).toList());
        }
    }

    private static String controls(final String corrid)
    {
        return """
            name: "m" backend: "pytorch" max_batch_size: 4
            input { name: "INPUT__0" data_type: TYPE_FP32 dims: [ 1 ] }
            output { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [ 1 ] }
            sequence_batching { control_input [
              { name: "START__2" control { kind: CONTROL_SEQUENCE_START int32_false_true: [ 0, 1 ] } },
              { name: "END__1" control { kind: CONTROL_SEQUENCE_END fp32_false_true: [ 0, 1 ] } },
              { name: "READY__3" control { kind: CONTROL_SEQUENCE_READY bool_false_true: [ false, true ] } },
              { name: "CORRID__4" control { kind: CONTROL_SEQUENCE_CORRID data_type: %s } } ] }
            """.formatted(corrid);
    }

    @Test
    void unsignedCorridsAreTritonsErrorWithTheTypesThatWork()
    {
        final ForwardSignature five = signature("Tensor", "x:Tensor", "a:Tensor", "b:Tensor", "c:Tensor",
            "d:Tensor");
        for (final String corrid : List.of("TYPE_UINT64", "TYPE_UINT32"))
        {
            final String message = refusal(controls(corrid), five);
            assertTrue(message.startsWith("model 'm' version 1: input 'CORRID__4' type '" + corrid + "' is not"
                + " supported by PyTorch. (model 'm': libtorch has no " + corrid + " tensors through DJL's JNI, as"
                + " Triton's backend has none; give CONTROL_SEQUENCE_CORRID data_type TYPE_INT64 or TYPE_INT32, or"
                + " TYPE_STRING for a List[str])"), message);
        }
    }

    @Test
    void aControlWhoseTypeTheArgumentDoesNotTakeIsRefused()
    {
        // A string CORRID is a List[str]; forward's argument is a Tensor.
        final String message = refusal(controls("TYPE_STRING"), signature("Tensor", "x:Tensor", "a:Tensor",
            "b:Tensor", "c:Tensor", "d:Tensor"));
        assertTrue(message.contains("input 'CORRID__4' is TYPE_STRING in the configuration, but forward's argument"
            + " 'd' is Tensor"), message);
        // A flag is a tensor; forward's argument is a List[str].
        final String flags = refusal(controls("TYPE_INT64"), signature("Tensor", "x:Tensor", "a:List[str]",
            "b:Tensor", "c:Tensor", "d:Tensor"));
        assertTrue(flags.contains("input 'END__1' is TYPE_FP32 in the configuration, but forward's argument 'a' is"
            + " List[str] (TYPE_STRING inputs are passed as List[str])"), flags);
        final String stringsNeedInferenceMode = assertThrows(ModelLoadException.class, () -> IoPlan.of("m", 1,
            TestModels.config(controls("TYPE_STRING")), null, false)).getMessage();
        assertTrue(stringsNeedInferenceMode.contains("input 'CORRID__4' (CONTROL_SEQUENCE_CORRID) is TYPE_STRING,"
            + " which needs INFERENCE_MODE true here"), stringsNeedInferenceMode);
    }

    @Test
    void controlsCountAsForwardArguments()
    {
        final String message = refusal(TRITONS, signature("Tuple[Tensor, Tensor]", "delay_itrs:Tensor",
            "seq_start:Tensor", "seq_id:Tensor"));
        assertTrue(message.contains("unable to load model 'm', configuration expects 4 inputs, model provides 3"
            + " (forward(delay_itrs, seq_start, seq_id); the configuration's 1 inputs and 3 sequence controls and"
            + " states)"), message);
    }

    @Test
    void aControlWithoutAnIndexIsTritonsError()
    {
        final String message = refusal(TRITONS.replace("SEQ_START__1", "SEQ_START"), IMPLICIT_STATE);
        assertTrue(message.contains("input 'SEQ_START' does not follow <name>__<index> naming convention."),
            message);
    }

    @Test
    void statesNeedEveryNameToFollowTheIndexConvention()
    {
        // Inputs named after forward's arguments are not <name>__<index>: Triton refuses them with a state.
        final String byArgument = refusal(TRITONS.replace("DELAY_ITRS__0", "delay_itrs"), IMPLICIT_STATE);
        assertTrue(byArgument.contains("PyTorch model 'm' is using sequence batching with state but not all inputs"
            + " and outputs follow the <name>__<index> naming convention. (inputs named after forward's arguments)"),
            byArgument);
        final String stateName = refusal(TRITONS.replace("SEQ_STATE_OUT__1", "SEQ_STATE_OUT"), IMPLICIT_STATE);
        assertTrue(stateName.contains("PyTorch model 'm' is using sequence batching with state but state"
            + " 'SEQ_STATE_OUT' does not follow the <name>__<index> naming convention. "), stateName);
    }

    @Test
    void statesOfTypesLibtorchLacksOrStringsAreRefused()
    {
        final String unsigned = refusal(TRITONS.replace("data_type: TYPE_INT64 dims: 1\n", "data_type: TYPE_UINT32"
            + " dims: 1\n").replace("data_type: TYPE_INT64 dims: 1 zero_data", "data_type: TYPE_UINT32 dims: 1"
            + " zero_data"), IMPLICIT_STATE);
        assertTrue(unsigned.contains("unsupported datatype TYPE_UINT32 for input state 'SEQ_STATE_IN__3' for model"
            + " 'm'"), unsigned);
        final String strings = refusal(TRITONS.replace("data_type: TYPE_INT64 dims: 1\n", "data_type: TYPE_STRING"
            + " dims: 1\n").replace("data_type: TYPE_INT64 dims: 1 zero_data", "data_type: TYPE_STRING dims: 1"
            + " zero_data"), IMPLICIT_STATE);
        assertTrue(strings.contains("state 'SEQ_STATE_IN__3' of model 'm' is TYPE_STRING: Ingot carries implicit"
            + " state as fixed-size rows; give the state a numeric or boolean data_type"), strings);
    }

    @Test
    void aStateOutputAlsoListedAsAnOutputIsOneTensor() throws Exception
    {
        final IoPlan plan = plan(TRITONS.replace("output {", "output { name: \"SEQ_STATE_OUT__1\" data_type:"
            + " TYPE_INT64 dims: [ 1 ] }\noutput {"), IMPLICIT_STATE);
        assertEquals(List.of("SEQ_STATE_OUT__1<-1:SEQ_STATE_IN__3", "DUMMY_OUT__0<-0:null"), plan.outputs().stream()
            .map(output -> output.name() + "<-" + output.index() + ":" + output.state()).toList());
    }
}
