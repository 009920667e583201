package io.ingot.trt;

import io.ingot.config.proto.ModelConfig;
import io.ingot.testing.TestModels;
import io.ingot.trt.shim.EngineSignature;
import io.ingot.trt.shim.EngineTensor;
import io.ingot.trt.shim.OptimizationProfile;
import io.ingot.trt.shim.ShapeRange;
import io.ingot.trt.shim.TensorIoMode;
import io.ingot.trt.shim.TrtDataType;
import io.ingot.trt.shim.TrtTensorFormat;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Checking a configuration against an engine signature, and completing one from it (no native code). */
class ModelBindingTest
{
    private static final String LABEL = "model 'm' version 1";

    @Test
    void rejectsVectorizedFormats()
    {
        final EngineSignature signature = signature(
            new EngineTensor("IMG", TensorIoMode.INPUT, TrtDataType.HALF, TrtTensorFormat.CHW16, false,
                new long[] {-1, 16, 8, 8}),
            output("OUT", TrtDataType.HALF, -1, 16, 8, 8));
        final IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
            () -> ModelBinding.bind(LABEL, TestModels.config("""
                max_batch_size: 1
                input [ { name: "IMG" data_type: TYPE_FP16 dims: [ 16, 8, 8 ] } ]
                output [ { name: "OUT" data_type: TYPE_FP16 dims: [ 16, 8, 8 ] } ]
                """), signature));
        assertTrue(failure.getMessage().startsWith("model 'm' version 1: input 'IMG' has TensorRT format kCHW16; "
            + "Ingot serves only row-major (kLINEAR) I/O"), failure.getMessage());
    }

    @Test
    void rejectsTypesTritonCannotServe()
    {
        final EngineSignature signature = signature(input("Q", TrtDataType.FP8, -1, 4),
            output("OUT", TrtDataType.FLOAT, -1, 4));
        final IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
            () -> ModelBinding.bind(LABEL, TestModels.config("""
                max_batch_size: 1
                input [ { name: "Q" data_type: TYPE_UINT8 dims: [ 4 ] } ]
                output [ { name: "OUT" data_type: TYPE_FP32 dims: [ 4 ] } ]
                """), signature));
        assertTrue(failure.getMessage().contains("input 'Q' has TensorRT type kFP8, which has no Triton data type"),
            failure.getMessage());
    }

    @Test
    void batchingNeedsADynamicFirstDimension()
    {
        final EngineSignature signature = signature(input("X", TrtDataType.FLOAT, 8, 4),
            output("Y", TrtDataType.FLOAT, 8, 4));
        final IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
            () -> ModelBinding.bind(LABEL, TestModels.config("""
                max_batch_size: 8
                input [ { name: "X" data_type: TYPE_FP32 dims: [ 4 ] } ]
                output [ { name: "Y" data_type: TYPE_FP32 dims: [ 4 ] } ]
                """), signature));
        assertTrue(failure.getMessage().contains("max_batch_size is 8 but the engine's input 'X' has a fixed first "
            + "dimension 8 in [8, 4]"), failure.getMessage());
        final ModelBinding full = ModelBinding.bind(LABEL, TestModels.config("""
            input [ { name: "X" data_type: TYPE_FP32 dims: [ 8, 4 ] } ]
            output [ { name: "Y" data_type: TYPE_FP32 dims: [ 8, 4 ] } ]
            """), signature);
        assertFalse(full.batching(), "the same engine serves with max_batch_size 0 and full shapes");
    }

    @Test
    void rankMismatchExplainsTheBatchDimension()
    {
        final EngineSignature signature = signature(input("X", TrtDataType.FLOAT, -1, 4),
            output("Y", TrtDataType.FLOAT, -1, 4));
        final IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
            () -> ModelBinding.bind(LABEL, TestModels.config("""
                max_batch_size: 4
                input [ { name: "X" data_type: TYPE_FP32 dims: [ -1, 4 ] } ]
                output [ { name: "Y" data_type: TYPE_FP32 dims: [ 4 ] } ]
                """), signature));
        assertEquals("model 'm' version 1: input 'X' has engine shape [-1, 4] (rank 2) but config.pbtxt gives "
            + "[batch] + [-1, 4] (dims) (rank 3); with max_batch_size 4 > 0 the engine's first dimension is the batch",
            failure.getMessage());
    }

    @Test
    void aConfiguredWildcardWhereTheEngineIsFixedIsRejected()
    {
        final EngineSignature signature = signature(input("X", TrtDataType.INT32, -1, 4),
            output("Y", TrtDataType.INT32, -1, 4));
        final IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
            () -> ModelBinding.bind(LABEL, TestModels.config("""
                max_batch_size: 4
                input [ { name: "X" data_type: TYPE_INT32 dims: [ -1 ] } ]
                output [ { name: "Y" data_type: TYPE_INT32 dims: [ 4 ] } ]
                """), signature));
        assertTrue(failure.getMessage().contains("input 'X' dimension 0 is -1 in config.pbtxt [batch] + [-1] (dims) "
            + "but the engine fixes it to 4"), failure.getMessage());
    }

    @Test
    void shapeTensorsAreRefused()
    {
        final EngineSignature signature = signature(
            new EngineTensor("SHAPE", TensorIoMode.INPUT, TrtDataType.INT32, TrtTensorFormat.LINEAR, true,
                new long[] {2}),
            output("Y", TrtDataType.FLOAT, -1, -1));
        final IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
            () -> ModelBinding.bind(LABEL, TestModels.config("""
                input [ { name: "SHAPE" data_type: TYPE_INT32 dims: [ 2 ] } ]
                output [ { name: "Y" data_type: TYPE_FP32 dims: [ -1, -1 ] } ]
                """), signature));
        assertTrue(failure.getMessage().contains("input 'SHAPE' is a shape tensor"), failure.getMessage());
    }

    @Test
    void reshapeIsComparedWithTheEngineAndMapsBothWays()
    {
        final EngineSignature signature = signature(input("IN", TrtDataType.FLOAT, -1, 2, -1),
            output("OUT", TrtDataType.FLOAT, -1, 2, -1));
        final ModelBinding binding = ModelBinding.bind(LABEL, TestModels.config("""
            max_batch_size: 4
            input [ { name: "IN" data_type: TYPE_FP32 dims: [ -1 ] reshape: { shape: [ 2, -1 ] } } ]
            output [ { name: "OUT" data_type: TYPE_FP32 dims: [ -1 ] reshape: { shape: [ 2, -1 ] } } ]
            """), signature);
        final TensorBinding in = binding.inputs().getFirst();
        final long[] engine = new long[8];
        assertEquals(3, in.toEngineShape(new long[] {3, 10}, 2, engine));
        assertArrayEquals(new long[] {3, 2, 5}, java.util.Arrays.copyOf(engine, 3),
            "the reshape's wildcard takes what the request's element count leaves");
        final TensorBinding out = binding.outputs().getFirst();
        assertArrayEquals(new long[] {3, 10}, out.toResponseShape(new long[] {3, 2, 5}, 3));
    }

    @Test
    void completesAnEmptyConfigLikeTritonsTensorRtBackend()
    {
        final EngineSignature signature = signature(input("X", TrtDataType.HALF, -1, 3, -1),
            output("Y", TrtDataType.INT64, -1, 7));
        final ModelConfig completed = EngineConfigCompleter.complete(LABEL,
            TestModels.config("name: \"m\" platform: \"tensorrt_plan\""), signature);
        assertEquals(4, completed.getMaxBatchSize());
        assertEquals(io.ingot.config.proto.DataType.TYPE_FP16, completed.getInput(0).getDataType());
        assertEquals(List.of(3L, -1L), completed.getInput(0).getDimsList());
        assertEquals(io.ingot.config.proto.DataType.TYPE_INT64, completed.getOutput(0).getDataType());
        assertTrue(completed.hasDynamicBatching());
        ModelBinding.bind(LABEL, completed, signature);

        final ModelConfig sequenceBatched = EngineConfigCompleter.complete(LABEL, TestModels.config(
            "name: \"m\" max_batch_size: 2 sequence_batching { }"), signature);
        assertFalse(sequenceBatched.hasDynamicBatching(), "an existing scheduler is kept");

        final EngineSignature fp8 = signature(input("X", TrtDataType.FP8, -1, 3), output("Y", TrtDataType.FLOAT, -1));
        final IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
            () -> EngineConfigCompleter.complete(LABEL, TestModels.config("name: \"m\""), fp8));
        assertTrue(failure.getMessage().contains("engine input 'X' has TensorRT type kFP8"), failure.getMessage());
    }

    @Test
    void aStaticEngineCompletesWithoutBatching()
    {
        final EngineSignature signature = signature(input("X", TrtDataType.FLOAT, 1, 3),
            output("Y", TrtDataType.FLOAT, 1, 3));
        final ModelConfig completed = EngineConfigCompleter.complete(LABEL, TestModels.config("name: \"m\""),
            signature);
        assertEquals(0, completed.getMaxBatchSize());
        assertEquals(List.of(1L, 3L), completed.getInput(0).getDimsList());
        assertFalse(completed.hasDynamicBatching());
    }

    @Test
    void selectsTheFittingProfileNearestItsOpt()
    {
        final EngineSignature signature = new EngineSignature(
            List.of(input("X", TrtDataType.FLOAT, -1, -1), output("Y", TrtDataType.FLOAT, -1, -1)),
            List.of(profile(0, new long[] {1, 1}, new long[] {1, 8}, new long[] {4, 64}),
                profile(1, new long[] {1, 1}, new long[] {16, 32}, new long[] {32, 64}),
                profile(2, new long[] {1, 65}, new long[] {8, 128}, new long[] {8, 256})));
        final ProfileSelector all = new ProfileSelector(signature, List.of(0, 1, 2), List.of("X"));
        final int[] ranks = {2};
        assertEquals(0, all.select(new long[][] {{2, 10}}, ranks));
        assertEquals(1, all.select(new long[][] {{4, 40}}, ranks), "both fit; profile 1's OPT is nearer");
        assertEquals(2, all.select(new long[][] {{8, 100}}, ranks));
        assertEquals(-1, all.select(new long[][] {{64, 10}}, ranks));
        final ProfileSelector onlyLast = new ProfileSelector(signature, List.of(2), List.of("X"));
        assertEquals(-1, onlyLast.select(new long[][] {{2, 10}}, ranks));
        assertEquals("input 'X' shape [2, 10] is outside optimization profile 2 (min [1, 65] opt [8, 128] max "
            + "[8, 256])", onlyLast.explainMismatch(new long[][] {{2, 10}}, ranks));
    }

    static EngineTensor input(final String name, final TrtDataType type, final long... shape)
    {
        return new EngineTensor(name, TensorIoMode.INPUT, type, TrtTensorFormat.LINEAR, false, shape);
    }

    static EngineTensor output(final String name, final TrtDataType type, final long... shape)
    {
        return new EngineTensor(name, TensorIoMode.OUTPUT, type, TrtTensorFormat.LINEAR, false, shape);
    }

    /** A signature whose one profile allows batch 1..8 for inputs with a dynamic first dimension. */
    private static EngineSignature signature(final EngineTensor... tensors)
    {
        final Map<String, ShapeRange> ranges = new java.util.LinkedHashMap<>();
        for (final EngineTensor tensor : tensors)
        {
            if (tensor.isInput() && !tensor.shapeTensor())
            {
                final long[] min = tensor.shape();
                final long[] max = tensor.shape();
                for (int i = 0; i < min.length; i++)
                {
                    if (min[i] < 0)
                    {
                        min[i] = 1;
                        max[i] = i == 0 ? 8 : 64;
                    }
                }
                ranges.put(tensor.name(), new ShapeRange(min, max, max));
            }
        }
        return new EngineSignature(List.of(tensors), List.of(new OptimizationProfile(0, ranges)));
    }

    private static OptimizationProfile profile(final int index, final long[] min, final long[] opt, final long[] max)
    {
        return new OptimizationProfile(index, Map.of("X", new ShapeRange(min, opt, max)));
    }
}
