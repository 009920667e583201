package io.ingot.onnx.writer;

import ai.onnxruntime.NodeInfo;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;
import io.ingot.onnx.writer.proto.ModelProto;
import io.ingot.onnx.writer.proto.NodeProto;
import io.ingot.onnx.writer.proto.TensorProto;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.FloatBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResNet50Test
{
    private static ModelProto model;

    @BeforeAll
    static void build()
    {
        model = ResNet50.build(7, "test");
    }

    @Test
    void hasTheResNet50LayerCountsAndParameterCount()
    {
        final Map<String, Long> ops = model.getGraph().getNodeList().stream()
            .collect(Collectors.groupingBy(NodeProto::getOpType, Collectors.counting()));
        // 1 stem + 16 blocks x 3 + 4 projections = 53 convolutions, each followed by batch normalization.
        assertEquals(53L, ops.get("Conv"));
        assertEquals(53L, ops.get("BatchNormalization"));
        assertEquals(16L, ops.get("Add"));
        assertEquals(1L, ops.get("MaxPool"));
        assertEquals(1L, ops.get("GlobalAveragePool"));
        assertEquals(1L, ops.get("Gemm"));

        long learned = 0;
        for (final TensorProto tensor : model.getGraph().getInitializerList())
        {
            if (tensor.getName().endsWith("_mean") || tensor.getName().endsWith("_var"))
            {
                continue;
            }
            long elements = 1;
            for (final long dim : tensor.getDimsList())
            {
                elements *= dim;
            }
            learned += elements;
        }
        assertEquals(25_557_032L, learned, "torchvision's resnet50 has 25,557,032 parameters");
    }

    @Test
    void sameSeedSameWeightsOtherSeedOtherWeights()
    {
        final TensorProto first = model.getGraph().getInitializer(0);
        final TensorProto again = ResNet50.build(7, "test").getGraph().getInitializer(0);
        final TensorProto other = ResNet50.build(8, "test").getGraph().getInitializer(0);
        assertEquals(first.getRawData(), again.getRawData());
        assertNotEquals(first.getRawData(), other.getRawData());
    }

    @Test
    void onnxRuntimeLoadsItAndComputesFiniteLogitsPerImage(@TempDir final Path directory) throws Exception
    {
        final Path file = directory.resolve("model.onnx");
        OnnxModelBuilder.write(model, file);
        assertTrue(Files.size(file) > 100_000_000L);

        final OrtEnvironment env = OrtEnvironment.getEnvironment();
        try (OrtSession session = env.createSession(file.toString(), new OrtSession.SessionOptions()))
        {
            final NodeInfo input = session.getInputInfo().get(ResNet50.INPUT);
            final NodeInfo output = session.getOutputInfo().get(ResNet50.OUTPUT);
            assertArrayEquals(new long[] {-1, 3, 224, 224}, ((TensorInfo) input.getInfo()).getShape());
            assertArrayEquals(new long[] {-1, ResNet50.CLASSES}, ((TensorInfo) output.getInfo()).getShape());

            final float[] images = new float[2 * 3 * 224 * 224];
            final SplittableRandom random = new SplittableRandom(1);
            for (int i = 0; i < images.length; i++)
            {
                images[i] = (float) random.nextDouble(-1, 1);
            }
            try (OnnxTensor batch = OnnxTensor.createTensor(env, FloatBuffer.wrap(images), new long[] {2, 3, 224, 224});
                OrtSession.Result result = session.run(Map.of(ResNet50.INPUT, batch)))
            {
                final float[][] logits = (float[][]) result.get(0).getValue();
                assertEquals(2, logits.length);
                for (final float[] row : logits)
                {
                    for (final float value : row)
                    {
                        assertTrue(Float.isFinite(value), "logit " + value);
                    }
                }
                assertNotEquals(logits[0][0], logits[1][0], "different images give different logits");
            }
        }
    }
}
