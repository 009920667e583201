package io.ingot.onnx.writer;

import io.ingot.onnx.writer.proto.ModelProto;
import io.ingot.onnx.writer.proto.TensorProto;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The two sequence-batcher example models of {@code examples/models}, written with {@link OnnxModelBuilder}:
 * <ul>
 *   <li>{@code simple_sequence}: Triton's example of that name —
 *       {@code OUTPUT = (INPUT + START) * READY}, all INT32 {@code [batch, 1]}, START and READY being the sequence
 *       batcher's control inputs. It keeps no state; what it shows is the controls each request's row receives.</li>
 *   <li>{@code sequence_accumulator_onnx}: the running sum of a sequence in implicit state —
 *       {@code OUTPUT = OUTPUT_STATE = INPUT + INPUT_STATE}, INT32 {@code [batch, 1]}. The server feeds
 *       {@code INPUT_STATE} from the sequence's previous {@code OUTPUT_STATE} (zeros on START).</li>
 * </ul>
 * Both graphs are a few nodes; the files are rewritten on every build (well under a millisecond each), so they can
 * never be stale.
 *
 * <p>Usage: {@code SequenceModels <examples/models directory>}.
 */
public final class SequenceModels
{
    /** The stateless START/READY model's directory name. */
    public static final String SIMPLE_SEQUENCE = "simple_sequence";
    /** The implicit-state accumulator's directory name. */
    public static final String ACCUMULATOR = "sequence_accumulator_onnx";

    private static final TensorProto.DataType INT32 = TensorProto.DataType.INT32;

    private SequenceModels()
    {
    }

    /** @return {@code OUTPUT = (INPUT + START) * READY} over INT32 {@code [batch, 1]} tensors. */
    public static ModelProto simpleSequence()
    {
        final OnnxModelBuilder model = new OnnxModelBuilder(SIMPLE_SEQUENCE)
            .docString("Triton's simple_sequence: OUTPUT = (INPUT + START) * READY");
        for (final String input : List.of("INPUT", "START", "READY"))
        {
            model.input(input, INT32, Dim.named("batch"), Dim.of(1));
        }
        model.output("OUTPUT", INT32, Dim.named("batch"), Dim.of(1));
        model.node("Mul", List.of(model.node("Add", List.of("INPUT", "START"), "started"), "READY"), "OUTPUT");
        return model.build();
    }

    /** @return {@code OUTPUT = OUTPUT_STATE = INPUT + INPUT_STATE} over INT32 {@code [batch, 1]} tensors. */
    public static ModelProto accumulator()
    {
        final OnnxModelBuilder model = new OnnxModelBuilder(ACCUMULATOR)
            .docString("running sum in implicit state: OUTPUT = OUTPUT_STATE = INPUT + INPUT_STATE");
        model.input("INPUT", INT32, Dim.named("batch"), Dim.of(1));
        model.input("INPUT_STATE", INT32, Dim.named("batch"), Dim.of(1));
        model.output("OUTPUT", INT32, Dim.named("batch"), Dim.of(1));
        model.output("OUTPUT_STATE", INT32, Dim.named("batch"), Dim.of(1));
        model.node("Identity", List.of(model.node("Add", List.of("INPUT", "INPUT_STATE"), "OUTPUT")), "OUTPUT_STATE");
        return model.build();
    }

    /**
     * @param args the example repository's directory
     * @throws IOException when a file cannot be written
     */
    public static void main(final String[] args) throws IOException
    {
        if (args.length != 1)
        {
            throw new IllegalArgumentException("usage: SequenceModels <examples/models directory>");
        }
        final Path repository = Path.of(args[0]).toAbsolutePath().normalize();
        OnnxModelBuilder.write(simpleSequence(), repository.resolve(SIMPLE_SEQUENCE).resolve("1/model.onnx"));
        OnnxModelBuilder.write(accumulator(), repository.resolve(ACCUMULATOR).resolve("1/model.onnx"));
        System.out.println("Wrote the sequence example models under " + repository);
    }
}
