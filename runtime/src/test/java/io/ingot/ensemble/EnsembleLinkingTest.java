package io.ingot.ensemble;

import io.ingot.api.CoreOptions;
import io.ingot.api.InferenceCore;
import io.ingot.api.ModelIndexEntry;
import io.ingot.config.proto.ModelConfig;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Triton's cross-model checks of an ensemble, made when it loads, each with Triton's message as the ensemble's
 * reason in the repository index; and the load order that lets an ensemble load after its composing models.
 */
class EnsembleLinkingTest
{
    /** add_sub over FP32 [4], batching up to 8. */
    static final ModelConfig ADD_SUB = TestModels.config("""
        name: "add_sub" backend: "add_sub" max_batch_size: 8
        input [{ name: "INPUT0" data_type: TYPE_FP32 dims: [4] }, { name: "INPUT1" data_type: TYPE_FP32 dims: [4] }]
        output [{ name: "OUTPUT0" data_type: TYPE_FP32 dims: [4] }, { name: "OUTPUT1" data_type: TYPE_FP32 dims: [4] }]
        """);

    /** identity over FP32 [4], batching up to 8. */
    static final ModelConfig IDENTITY = TestModels.config("""
        name: "identity" backend: "identity" max_batch_size: 8
        input [{ name: "INPUT0" data_type: TYPE_FP32 dims: [4] }]
        output [{ name: "OUTPUT0" data_type: TYPE_FP32 dims: [4] }]
        """);

    /**
     * @param name   the ensemble's name
     * @param mbs    its max_batch_size
     * @param type   the datatype of its input and output
     * @param dims   their dims
     * @param steps  its steps
     * @return a one-input, one-output ensemble ({@code IN} to {@code OUT})
     */
    static ModelConfig ensemble(final String name, final int mbs, final String type, final String dims,
        final String steps)
    {
        return TestModels.config("name: \"" + name + "\" platform: \"ensemble\" max_batch_size: " + mbs
            + " input [{ name: \"IN\" data_type: " + type + " dims: " + dims + " }]"
            + " output [{ name: \"OUT\" data_type: " + type + " dims: " + dims + " }]"
            + " ensemble_scheduling { " + steps + " }");
    }

    /** @return a step of {@code model} reading IN into its INPUT0 and writing its OUTPUT0 to OUT */
    static String step(final String model)
    {
        return "step [{ model_name: \"" + model + "\" model_version: -1 input_map { key: \"INPUT0\" value: \"IN\" }"
            + " output_map { key: \"OUTPUT0\" value: \"OUT\" } }]";
    }

    private static String reasonOf(final ModelConfig ensemble, final ModelConfig... composing)
    {
        final CoreOptions.Builder options = TestModels.options(composing).model(ensemble);
        try (InferenceCore core = InferenceCore.open(options.build()))
        {
            assertFalse(core.isModelReady(ensemble.getName(), -1));
            return entry(core, ensemble.getName()).reason();
        }
    }

    static ModelIndexEntry entry(final InferenceCore core, final String model)
    {
        return core.repositoryIndex(false).stream().filter(e -> e.name().equals(model)).findFirst()
            .orElseThrow(() -> new AssertionError(model + " is not in the index"));
    }

    /** Triton's decoupled repeat model (the built-in {@code repeat} backend). */
    private static final ModelConfig REPEAT = TestModels.config("""
        name: "repeat" backend: "repeat" max_batch_size: 0 model_transaction_policy { decoupled: true }
        input [{ name: "IN" data_type: TYPE_INT32 dims: [-1] }, { name: "DELAY" data_type: TYPE_UINT32 dims: [-1] },
               { name: "WAIT" data_type: TYPE_UINT32 dims: [1] }]
        output [{ name: "OUT" data_type: TYPE_INT32 dims: [1] }, { name: "IDX" data_type: TYPE_UINT32 dims: [1] }]
        """);

    /** @return an ensemble over two outputs, A and B, written by {@code steps} from IN, DELAY and WAIT */
    private static ModelConfig twoOutputs(final String steps)
    {
        return TestModels.config("name: \"branches\" platform: \"ensemble\" max_batch_size: 0"
            + " input [{ name: \"IN\" data_type: TYPE_INT32 dims: [-1] },"
            + " { name: \"DELAY\" data_type: TYPE_UINT32 dims: [-1] },"
            + " { name: \"WAIT\" data_type: TYPE_UINT32 dims: [1] }]"
            + " output [{ name: \"A\" data_type: TYPE_INT32 dims: [1] },"
            + " { name: \"B\" data_type: TYPE_UINT32 dims: [1] }]"
            + " ensemble_scheduling { " + steps + " }");
    }

    /** @return a repeat step over the ensemble's inputs writing OUT and IDX to the tensors named (null: unmapped) */
    private static String repeatStep(final String out, final String idx)
    {
        return "step [{ model_name: \"repeat\" model_version: -1 input_map { key: \"IN\" value: \"IN\" }"
            + " input_map { key: \"DELAY\" value: \"DELAY\" } input_map { key: \"WAIT\" value: \"WAIT\" }"
            + (out == null ? "" : " output_map { key: \"OUT\" value: \"" + out + "\" }")
            + (idx == null ? "" : " output_map { key: \"IDX\" value: \"" + idx + "\" }") + " }]";
    }

    @Test
    void outputsOfTwoDecoupledStepsMeetingInOneStepAreRefusedInTritonsWords()
    {
        // Each decoupled step starts its own branch; the ensemble's outputs (its sink) join two of them.
        assertEquals("in ensemble branches, step of model 'branches' receives inputs originated from different"
            + " decoupled models", reasonOf(twoOutputs(repeatStep("A", null) + repeatStep(null, "B")),
            REPEAT));
    }

    @Test
    void theOutputsOfOneDecoupledStepShareOneBranch()
    {
        // No branching error: what remains is that Ingot's ensembles do not run decoupled steps yet.
        assertEquals("in ensemble branches, step 0 runs model 'repeat', which is decoupled: Ingot's ensembles do not"
            + " run decoupled steps yet", reasonOf(twoOutputs(repeatStep("A", "B")), REPEAT));
    }

    @Test
    void aStepModelThatIsNotLoadedIsNamed()
    {
        assertEquals("ensemble e contains models that are not available or ambiguous: nowhere",
            reasonOf(ensemble("e", 8, "TYPE_FP32", "[4]", step("nowhere")), IDENTITY));
    }

    @Test
    void aStepVersionThatIsNotLoadedIsNamed()
    {
        assertEquals("ensemble 'e' depends on 'identity' whose required version 2 is not loaded",
            reasonOf(ensemble("e", 8, "TYPE_FP32", "[4]", step("identity").replace("model_version: -1",
                "model_version: 2")), IDENTITY));
    }

    @Test
    void aStepThatBatchesLessThanTheEnsembleIsRefused()
    {
        assertEquals("ensemble e allows maximum batch size 16, but it contains model identity which only allows "
            + "maximum batch size to be 8", reasonOf(ensemble("e", 16, "TYPE_FP32", "[4]", step("identity")),
            IDENTITY));
    }

    @Test
    void aNonBatchingStepIsExemptFromTheBatchSizeCheck()
    {
        final ModelConfig flat = TestModels.config("""
            name: "flat" backend: "identity" max_batch_size: 0
            input [{ name: "INPUT0" data_type: TYPE_FP32 dims: [-1, 4] }]
            output [{ name: "OUTPUT0" data_type: TYPE_FP32 dims: [-1, 4] }]
            """);
        try (InferenceCore core = InferenceCore.open(TestModels.options(flat,
            ensemble("e", 8, "TYPE_FP32", "[4]", step("flat"))).build()))
        {
            assertTrue(core.isModelReady("e", -1), () -> entry(core, "e").reason());
        }
    }

    @Test
    void inconsistentDatatypesNameBothModels()
    {
        assertEquals("in ensemble e, ensemble tensor IN: inconsistent data type: TYPE_INT32 is inferred from model e "
            + "while TYPE_FP32 is inferred from model identity",
            reasonOf(ensemble("e", 8, "TYPE_INT32", "[4]", step("identity")), IDENTITY));
    }

    @Test
    void inconsistentShapesShowBothFullShapes()
    {
        assertEquals("in ensemble e, ensemble tensor IN: inconsistent shape: [-1,16] is inferred from model e while "
            + "[-1,4] is inferred from model identity",
            reasonOf(ensemble("e", 8, "TYPE_FP32", "[16]", step("identity")), IDENTITY));
    }

    @Test
    void aStepInputThatIsNotMappedIsRefused()
    {
        final String steps = "step [{ model_name: \"add_sub\" model_version: -1"
            + " input_map { key: \"INPUT0\" value: \"IN\" } output_map { key: \"OUTPUT0\" value: \"OUT\" } }]";
        assertEquals("in ensemble e, input INPUT1 in model add_sub is not mapped to any ensemble tensors",
            reasonOf(ensemble("e", 8, "TYPE_FP32", "[4]", steps), ADD_SUB));
    }

    @Test
    void mappingsToTensorsTheStepModelDoesNotHaveAreRefused()
    {
        assertEquals("in ensemble e, ensemble tensor IN is mapping to non-existing input BOGUS in model identity",
            reasonOf(ensemble("e", 8, "TYPE_FP32", "[4]", step("identity").replace("key: \"INPUT0\"",
                "key: \"BOGUS\"")), IDENTITY));
        assertEquals("in ensemble e, ensemble tensor OUT is mapped from non-existing output BOGUS in model identity",
            reasonOf(ensemble("e", 8, "TYPE_FP32", "[4]", step("identity").replace("key: \"OUTPUT0\"",
                "key: \"BOGUS\"")), IDENTITY));
    }

    @Test
    void ensemblesThatContainEachOtherReportTheCycle()
    {
        final ModelConfig a = ensemble("a", 8, "TYPE_FP32", "[4]", step("b"));
        final ModelConfig b = ensemble("b", 8, "TYPE_FP32", "[4]", step("a"));
        try (InferenceCore core = InferenceCore.open(TestModels.options(a, b).build()))
        {
            assertEquals("circular dependency between ensembles: a -> ... -> b -> a", entry(core, "a").reason());
            assertEquals("circular dependency between ensembles: b -> ... -> a -> b", entry(core, "b").reason());
        }
    }

    @Test
    void ensemblesLoadAfterTheirComposingModelsWhateverOrderTheyAreGivenIn()
    {
        // An ensemble of an ensemble: the outer one can only link once the inner one is loaded.
        final ModelConfig outer = ensemble("outer", 8, "TYPE_FP32", "[4]", step("inner").replace("INPUT0", "IN")
            .replace("OUTPUT0", "OUT"));
        final ModelConfig inner = ensemble("inner", 8, "TYPE_FP32", "[4]", step("identity"));
        try (InferenceCore core = InferenceCore.open(CoreOptions.builder().model(outer).model(inner)
            .model(IDENTITY).build()))
        {
            for (final String model : List.of("identity", "inner", "outer"))
            {
                assertTrue(core.isModelReady(model, -1), () -> model + ": " + entry(core, model).reason());
                assertEquals(new ModelIndexEntry(model, "1", "READY", ""), entry(core, model));
            }
            assertEquals("ensemble", core.modelMetadata("outer", -1).platform());
        }
    }
}
