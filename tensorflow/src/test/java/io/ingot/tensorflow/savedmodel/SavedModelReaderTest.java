package io.ingot.tensorflow.savedmodel;

import io.ingot.tensor.DataType;
import io.ingot.tensorflow.proto.SavedModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reading SavedModels the writer wrote, and Triton's rules for picking the tag and the signature. */
class SavedModelReaderTest
{
    @TempDir
    Path dir;

    private static SavedModelWriter identity(final String... tags)
    {
        final GraphBuilder graph = new GraphBuilder();
        graph.placeholder("x", DataType.INT64, -1, 3);
        graph.identity("y", "x", DataType.INT64);
        return new SavedModelWriter(graph.build(), tags);
    }

    @Test
    void theWrittenSignatureReadsBackSortedWithItsShapes() throws Exception
    {
        ExampleSavedModels.addSub(16).write(dir);
        final ServingSignature signature = SavedModelReader.signature(dir, "simple", "", "");
        assertEquals("serve", signature.tag());
        assertEquals("serving_default", signature.key());
        assertEquals(List.of("INPUT0", "INPUT1"), signature.inputs().stream().map(SignatureTensor::name).toList());
        assertEquals(List.of("OUTPUT0", "OUTPUT1"), signature.outputs().stream().map(SignatureTensor::name).toList());
        final SignatureTensor sum = signature.output("OUTPUT0");
        assertEquals("add:0", sum.graphTensor());
        assertEquals(1, sum.dataType());
        assertArrayEquals(new long[] {-1, 16}, sum.dims());
        assertEquals("[-1,16]", sum.shapeText());
        assertTrue(signature.supportsBatching());
        assertTrue(Files.isDirectory(dir.resolve("variables")), "the SavedModel layout has a variables folder");
    }

    @Test
    void rewritingIdenticalBytesLeavesTheFileAlone() throws Exception
    {
        assertTrue(ExampleSavedModels.addSub(16).write(dir));
        assertFalse(ExampleSavedModels.addSub(16).write(dir));
        assertTrue(ExampleSavedModels.addSub(8).write(dir));
    }

    @Test
    void anotherTagIsFoundOnlyWhenAsked() throws Exception
    {
        identity("train").input("serving_default", "x", "x:0", DataType.INT64, new long[] {-1, 3})
            .output("serving_default", "y", "y:0", DataType.INT64, new long[] {-1, 3}).write(dir);
        final InvalidSavedModelException missing = assertThrows(InvalidSavedModelException.class,
            () -> SavedModelReader.signature(dir, "m", "", ""));
        assertEquals("unable to load model 'm', expected 'serve' tag (the SavedModel's MetaGraphDefs are tagged"
            + " [[train]]; set parameter TF_GRAPH_TAG to load another)", missing.getMessage());
        assertEquals("train", SavedModelReader.signature(dir, "m", "train", "").tag());
    }

    @Test
    void withoutServingDefaultTheFirstServableSignatureIsTaken() throws Exception
    {
        identity("serve")
            .input("__saved_model_init_op", "x", "x:0", DataType.INT64, new long[] {-1, 3})
            .input("predict", "x", "x:0", DataType.INT64, new long[] {-1, 3})
            .output("predict", "y", "y:0", DataType.INT64, new long[] {-1, 3}).write(dir);
        assertEquals("predict", SavedModelReader.signature(dir, "m", "", "").key());
        final InvalidSavedModelException named = assertThrows(InvalidSavedModelException.class,
            () -> SavedModelReader.signature(dir, "m", "", "classify"));
        assertEquals("unable to load model 'm', expected 'classify' signature (the MetaGraphDef tagged 'serve' has"
            + " signatures [__saved_model_init_op, predict])", named.getMessage());
    }

    @Test
    void aTypeTritonHasNoNameForIsRefusedByName() throws Exception
    {
        identity("serve").tensor("serving_default", true, "z", "x:0", 8, new long[] {-1, 3}).write(dir);
        final InvalidSavedModelException failure = assertThrows(InvalidSavedModelException.class,
            () -> SavedModelReader.signature(dir, "complex", "", ""));
        assertEquals("unable to process input 'z' for 'complex', unsupported datatype 'DT_COMPLEX64'",
            failure.getMessage());
    }

    @Test
    void aTensorWithoutAShapeHasRankZeroAndStillBatches() throws Exception
    {
        identity("serve").input("serving_default", "x", "x:0", DataType.INT64, null)
            .output("serving_default", "y", "y:0", DataType.INT64, new long[] {-1, 3}).write(dir);
        final ServingSignature signature = SavedModelReader.signature(dir, "m", "", "");
        assertFalse(signature.input("x").rankKnown());
        assertEquals(0, signature.input("x").rank());
        assertTrue(signature.supportsBatching());
    }

    @Test
    void missingAndCorruptFilesAreNamed() throws Exception
    {
        final Path absent = dir.resolve("nothing");
        assertEquals("unable to find '" + absent + "' for model 'm'", assertThrows(InvalidSavedModelException.class,
            () -> SavedModelReader.read(absent, "m")).getMessage());

        final Path empty = Files.createDirectories(dir.resolve("empty"));
        assertEquals("model 'm': '" + empty + "' is not a SavedModel: it holds no saved_model.pb (or"
            + " saved_model.pbtxt)", assertThrows(InvalidSavedModelException.class,
            () -> SavedModelReader.read(empty, "m")).getMessage());

        final Path corrupt = Files.createDirectories(dir.resolve("corrupt"));
        final byte[] good = ExampleSavedModels.addSub(16).build().toByteArray();
        Files.write(corrupt.resolve("saved_model.pb"), java.util.Arrays.copyOf(good, good.length / 2));
        final String truncated = assertThrows(InvalidSavedModelException.class,
            () -> SavedModelReader.read(corrupt, "m")).getMessage();
        assertTrue(truncated.startsWith("model 'm': '" + corrupt.resolve("saved_model.pb") + "' (" + good.length / 2
            + " bytes) is not a SavedModel protocol buffer: "), truncated);

        Files.writeString(corrupt.resolve("saved_model.pb"), "this is not a protocol buffer at all\n");
        final String text = assertThrows(InvalidSavedModelException.class,
            () -> SavedModelReader.read(corrupt, "m")).getMessage();
        assertTrue(text.contains("saved_model.pb") && text.contains("model 'm'"), text);
    }

    @Test
    void theTextFormatIsReadToo() throws Exception
    {
        final SavedModel model = ExampleSavedModels.addSub(4).build();
        Files.writeString(dir.resolve("saved_model.pbtxt"), com.google.protobuf.TextFormat.printer()
            .printToString(model));
        assertEquals(model, SavedModelReader.read(dir, "m"));
    }
}
