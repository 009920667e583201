package io.ingot.tensorflow;

import io.ingot.tensor.DataType;
import io.ingot.tensorflow.proto.AttrValue;
import io.ingot.tensorflow.proto.NodeDef;
import io.ingot.tensorflow.savedmodel.GraphBuilder;
import io.ingot.tensorflow.savedmodel.SavedModelWriter;

/** SavedModels with sequence controls and implicit state, written by the module's writer, and their configurations. */
final class SequenceSavedModels
{
    private SequenceSavedModels()
    {
    }

    /**
     * Returns the controls the graph is fed: {@code SEEN_<X> = Identity(<X>)} for START (INT32), END (FP32), READY
     * (BOOL) and CORRID (of the given type), each {@code [-1, 1]}; {@code INPUT} (FP32) is fed and unused.
     *
     * @param corrid    the CORRID's type in the graph
     * @param startType START's type in the graph
     * @return the SavedModel
     */
    static SavedModelWriter controlsEcho(final DataType corrid, final DataType startType)
    {
        final GraphBuilder graph = new GraphBuilder();
        final String[] names = {"INPUT", "START", "END", "READY", "CORRID"};
        final DataType[] types = {DataType.FP32, startType, DataType.FP32, DataType.BOOL, corrid};
        for (int i = 0; i < names.length; i++)
        {
            graph.placeholder(names[i], types[i], -1, 1);
        }
        for (int i = 1; i < names.length; i++)
        {
            graph.identity("SEEN_" + names[i], names[i], types[i]);
        }
        final SavedModelWriter model = new SavedModelWriter(graph.build(), "serve");
        for (int i = 0; i < names.length; i++)
        {
            model.input(TestSavedModels.signature(), names[i], names[i] + ":0", types[i], new long[] {-1, 1});
        }
        for (int i = 1; i < names.length; i++)
        {
            model.output(TestSavedModels.signature(), "SEEN_" + names[i], "SEEN_" + names[i] + ":0", types[i],
                new long[] {-1, 1});
        }
        return model;
    }

    /**
     * @param name   the model's name
     * @param corrid the CORRID's configured type ({@code TYPE_UINT64}, ...)
     * @param start  START's control values ({@code int32_false_true: [ -1, 7 ]})
     * @return the configuration of {@link #controlsEcho}
     */
    static String controlsConfig(final String name, final String corrid, final String start)
    {
        return """
            name: "%1$s" platform: "tensorflow_savedmodel" max_batch_size: 4
            input { name: "INPUT" data_type: TYPE_FP32 dims: [ 1 ] }
            output { name: "SEEN_START" data_type: TYPE_INT32 dims: [ 1 ] }
            output { name: "SEEN_END" data_type: TYPE_FP32 dims: [ 1 ] }
            output { name: "SEEN_READY" data_type: TYPE_BOOL dims: [ 1 ] }
            output { name: "SEEN_CORRID" data_type: %2$s dims: [ 1 ] }
            sequence_batching {
              max_sequence_idle_microseconds: 60000000  # a busy test machine may pause beyond the default 1 s
              direct { }
              control_input [
                { name: "START" control { kind: CONTROL_SEQUENCE_START %3$s } },
                { name: "END" control { kind: CONTROL_SEQUENCE_END fp32_false_true: [ 0.5, 2.5 ] } },
                { name: "READY" control { kind: CONTROL_SEQUENCE_READY bool_false_true: [ false, true ] } },
                { name: "CORRID" control { kind: CONTROL_SEQUENCE_CORRID data_type: %2$s } } ]
            }
            instance_group { kind: KIND_CPU count: 1 }
            """.formatted(name, corrid, start);
    }

    /** {@code OUTPUT = OUTPUT_STATE = INPUT + INPUT_STATE}, INT32 {@code [-1, 1]}: a running total. */
    static SavedModelWriter accumulator()
    {
        final GraphBuilder graph = new GraphBuilder();
        final String input = graph.placeholder("INPUT", DataType.INT32, -1, 1);
        final String state = graph.placeholder("INPUT_STATE", DataType.INT32, -1, 1);
        final String total = graph.binary("AddV2", "total", input, state, DataType.INT32);
        final String next = graph.identity("next_state", total, DataType.INT32);
        return new SavedModelWriter(graph.build(), "serve")
            .input(TestSavedModels.signature(), "INPUT", input + ":0", DataType.INT32, new long[] {-1, 1})
            .input(TestSavedModels.signature(), "INPUT_STATE", state + ":0", DataType.INT32, new long[] {-1, 1})
            .output(TestSavedModels.signature(), "OUTPUT", total + ":0", DataType.INT32, new long[] {-1, 1})
            .output(TestSavedModels.signature(), "OUTPUT_STATE", next + ":0", DataType.INT32, new long[] {-1, 1});
    }

    /**
     * @param name         the model's name
     * @param initialState the {@code initial_state}'s source ({@code zero_data: true}, {@code data_file: "f"})
     * @return the configuration of {@link #accumulator}
     */
    static String accumulatorConfig(final String name, final String initialState)
    {
        return """
            name: "%s" platform: "tensorflow_savedmodel" max_batch_size: 2
            input { name: "INPUT" data_type: TYPE_INT32 dims: [ 1 ] }
            output { name: "OUTPUT" data_type: TYPE_INT32 dims: [ 1 ] }
            sequence_batching {
              max_sequence_idle_microseconds: 60000000  # a busy test machine may pause beyond the default 1 s
              direct { }
              state { input_name: "INPUT_STATE" output_name: "OUTPUT_STATE" data_type: TYPE_INT32 dims: [ 1 ]
                initial_state { name: "initial" data_type: TYPE_INT32 dims: [ 1 ] %s } }
            }
            instance_group { kind: KIND_CPU count: 1 }
            """.formatted(name, initialState);
    }

    /**
     * {@code OUTPUT_STATE = ConcatV2([INPUT_STATE, INPUT], 1)}, FP32: the state grows by the input on every request;
     * {@code OUTPUT = Sum(OUTPUT_STATE, 1, keep_dims)}.
     */
    static SavedModelWriter growing()
    {
        final GraphBuilder graph = new GraphBuilder();
        final String input = graph.placeholder("INPUT", DataType.FP32, -1, 1);
        final String state = graph.placeholder("INPUT_STATE", DataType.FP32, -1, -1);
        final String axis = graph.constant("axis", new long[0], 1);
        final String axes = graph.constant("axes", new long[] {1}, 1);
        final String grown = graph.add(NodeDef.newBuilder().setName("grown").setOp("ConcatV2").addInput(state)
            .addInput(input).addInput(axis).putAttr("N", AttrValue.newBuilder().setI(2).build())
            .putAttr("T", GraphBuilder.type(DataType.FP32)).putAttr("Tidx", GraphBuilder.type(DataType.INT32)));
        final String sum = graph.add(NodeDef.newBuilder().setName("sum").setOp("Sum").addInput(grown).addInput(axes)
            .putAttr("T", GraphBuilder.type(DataType.FP32)).putAttr("Tidx", GraphBuilder.type(DataType.INT32))
            .putAttr("keep_dims", AttrValue.newBuilder().setB(true).build()));
        return new SavedModelWriter(graph.build(), "serve")
            .input(TestSavedModels.signature(), "INPUT", input + ":0", DataType.FP32, new long[] {-1, 1})
            .input(TestSavedModels.signature(), "INPUT_STATE", state + ":0", DataType.FP32, new long[] {-1, -1})
            .output(TestSavedModels.signature(), "OUTPUT", sum + ":0", DataType.FP32, new long[] {-1, 1})
            .output(TestSavedModels.signature(), "OUTPUT_STATE", grown + ":0", DataType.FP32, new long[] {-1, -1});
    }

    /**
     * @param name the model's name
     * @param dims the state's dims ({@code -1}: it may grow; {@code 1}: it must not)
     * @return the configuration of {@link #growing}
     */
    static String growingConfig(final String name, final String dims)
    {
        return """
            name: "%s" platform: "tensorflow_savedmodel" max_batch_size: 1
            input { name: "INPUT" data_type: TYPE_FP32 dims: [ 1 ] }
            output { name: "OUTPUT" data_type: TYPE_FP32 dims: [ 1 ] }
            sequence_batching {
              max_sequence_idle_microseconds: 60000000  # a busy test machine may pause beyond the default 1 s
              state { input_name: "INPUT_STATE" output_name: "OUTPUT_STATE" data_type: TYPE_FP32 dims: [ %s ]
                initial_state { name: "initial" data_type: TYPE_FP32 dims: [ 1 ] zero_data: true } }
            }
            instance_group { kind: KIND_CPU count: 1 }
            """.formatted(name, dims);
    }
}
