package io.ingot.onnx;

import io.ingot.onnx.writer.Dim;
import io.ingot.onnx.writer.OnnxModelBuilder;
import io.ingot.onnx.writer.proto.TensorProto;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Small ONNX models written with the project's own writer, and configurations for them. */
final class OnnxModels
{
    private OnnxModels()
    {
    }

    /**
     * {@code A, B: float[batch, 4]} → {@code SUM = A + B}, {@code DIFF = A - B}.
     */
    static Path addSub(final Path directory) throws IOException
    {
        final OnnxModelBuilder model = new OnnxModelBuilder("add_sub");
        model.input("A", TensorProto.DataType.FLOAT, Dim.named("batch"), Dim.of(4));
        model.input("B", TensorProto.DataType.FLOAT, Dim.named("batch"), Dim.of(4));
        model.output("SUM", TensorProto.DataType.FLOAT, Dim.named("batch"), Dim.of(4));
        model.output("DIFF", TensorProto.DataType.FLOAT, Dim.named("batch"), Dim.of(4));
        model.node("Add", List.of("A", "B"), "SUM");
        model.node("Sub", List.of("A", "B"), "DIFF");
        return write(model, directory);
    }

    /** {@code X: float[batch, n]} → {@code Y = X * 2} declared {@code [batch, n]}: a symbolic output dimension. */
    static Path doubler(final Path directory) throws IOException
    {
        final OnnxModelBuilder model = new OnnxModelBuilder("doubler");
        model.input("X", TensorProto.DataType.FLOAT, Dim.named("batch"), Dim.named("n"));
        model.output("Y", TensorProto.DataType.FLOAT, Dim.named("batch"), Dim.named("n"));
        model.floatInitializer("two", new long[] {}, 2.0f);
        model.node("Mul", List.of("X", "two"), "Y");
        return write(model, directory);
    }

    /**
     * {@code X: float[batch, n]} → {@code Y = concat(X, X)} on axis 1, declared with the symbol {@code outSymbol}
     * for its second dimension. With a symbol no input has, its size is known only after the run; with {@code "n"}
     * the declaration is wrong (the real size is {@code 2n}).
     */
    static Path concat(final Path directory, final String outSymbol) throws IOException
    {
        final OnnxModelBuilder model = new OnnxModelBuilder("concat");
        model.input("X", TensorProto.DataType.FLOAT, Dim.named("batch"), Dim.named("n"));
        model.output("Y", TensorProto.DataType.FLOAT, Dim.named("batch"), Dim.named(outSymbol));
        model.node("Concat", List.of("X", "X"), "Y", io.ingot.onnx.writer.Attributes.intValue("axis", 1));
        return write(model, directory);
    }

    /** {@code S: string[batch, 2]} → {@code T = S} (Identity). */
    static Path stringEcho(final Path directory) throws IOException
    {
        final OnnxModelBuilder model = new OnnxModelBuilder("echo");
        model.input("S", TensorProto.DataType.STRING, Dim.named("batch"), Dim.of(2));
        model.output("T", TensorProto.DataType.STRING, Dim.named("batch"), Dim.of(2));
        model.node("Identity", List.of("S"), "T");
        return write(model, directory);
    }

    /** {@code IDS: int64[batch, 3]} → {@code TWICE = IDS + IDS}. */
    static Path int64Twice(final Path directory) throws IOException
    {
        final OnnxModelBuilder model = new OnnxModelBuilder("twice");
        model.input("IDS", TensorProto.DataType.INT64, Dim.named("batch"), Dim.of(3));
        model.output("TWICE", TensorProto.DataType.INT64, Dim.named("batch"), Dim.of(3));
        model.node("Add", List.of("IDS", "IDS"), "TWICE");
        return write(model, directory);
    }

    /** {@code X: float[2, 2]} (no batch dimension) → {@code Y = relu(X)}. */
    static Path fixedRelu(final Path directory) throws IOException
    {
        final OnnxModelBuilder model = new OnnxModelBuilder("relu");
        model.input("X", TensorProto.DataType.FLOAT, Dim.of(2), Dim.of(2));
        model.output("Y", TensorProto.DataType.FLOAT, Dim.of(2), Dim.of(2));
        model.node("Relu", List.of("X"), "Y");
        return write(model, directory);
    }

    /** {@code X: type[batch, n]} → {@code Y = X} (Identity) for any Ingot type. */
    static Path identity(final Path directory, final io.ingot.tensor.DataType type) throws IOException
    {
        final TensorProto.DataType onnx = TensorProto.DataType.forNumber(OnnxTypes.toOnnx(type));
        final OnnxModelBuilder model = new OnnxModelBuilder("identity");
        model.input("X", onnx, Dim.named("batch"), Dim.named("n"));
        model.output("Y", onnx, Dim.named("batch"), Dim.named("n"));
        model.node("Identity", List.of("X"), "Y");
        return write(model, directory);
    }

    private static Path write(final OnnxModelBuilder model, final Path directory) throws IOException
    {
        final Path file = directory.resolve("1").resolve("model.onnx");
        OnnxModelBuilder.write(model.build(), file);
        return file;
    }
}
