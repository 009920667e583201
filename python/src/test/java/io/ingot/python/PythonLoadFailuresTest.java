package io.ingot.python;

import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.config.proto.ModelConfig;
import io.ingot.tensor.DataType;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Python models that cannot load, each refused with a message naming the model and saying why, while a good model of
 * the same core loads and serves: a {@code model.py} with a syntax error, one without {@code TritonPythonModel}, one
 * without {@code execute}, an {@code initialize} that raises, a missing {@code model.py}, a bad parameter, an
 * interpreter that does not exist; and {@code auto_complete_config}, completing a configuration or failing the load
 * with its message.
 */
class PythonLoadFailuresTest
{
    private static final String CONFIG = """
        backend: "python"
        max_batch_size: 0
        input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 1 ] } ]
        output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 1 ] } ]
        """;

    private static final String GOOD = """
        import triton_python_backend_utils as pb_utils


        class TritonPythonModel:
            def execute(self, requests):
                return [pb_utils.InferenceResponse([pb_utils.Tensor("OUTPUT0", r.inputs()[0].as_numpy())])
                        for r in requests]
        """;

    private static final String AUTO_COMPLETE = """
        import triton_python_backend_utils as pb_utils


        class TritonPythonModel:
            @staticmethod
            def auto_complete_config(auto_complete_model_config):
                auto_complete_model_config.add_input({"name": "INPUT0", "data_type": "TYPE_FP32", "dims": [4]})
                auto_complete_model_config.add_output({"name": "OUTPUT0", "data_type": "TYPE_FP32", "dims": [4]})
                auto_complete_model_config.set_max_batch_size(4)
                auto_complete_model_config.set_dynamic_batching()
                return auto_complete_model_config

            def execute(self, requests):
                return [pb_utils.InferenceResponse([pb_utils.Tensor("OUTPUT0", r.inputs()[0].as_numpy() + 1)])
                        for r in requests]
        """;

    private static final String[] BROKEN = {"syntax_error", "no_class", "no_execute", "initialize_fails", "no_file",
        "bad_parameter", "no_interpreter", "auto_complete_fails"};

    @TempDir
    static Path repository;
    private static InferenceCore core;

    @BeforeAll
    static void open() throws Exception
    {
        PythonTests.requirePython(PythonLoadFailuresTest.class);
        write("good", "", GOOD);
        write("syntax_error", "", "import triton_python_backend_utils as pb_utils\n\n\nclass TritonPythonModel:\n"
            + "    def execute(self, requests)\n        return []\n");
        write("no_class", "", "class SomethingElse:\n    pass\n");
        write("no_execute", "", "class TritonPythonModel:\n    def initialize(self, args):\n        pass\n");
        write("initialize_fails", "", "class TritonPythonModel:\n    def initialize(self, args):\n"
            + "        raise RuntimeError('the weights of ' + args['model_name'] + ' are missing')\n"
            + "    def execute(self, requests):\n        return []\n");
        write("no_file", "", null);
        write("bad_parameter", "parameters { key: \"INGOT_EXECUTE_TIMEOUT_SECONDS\" value { string_value: \"soon\" } }",
            GOOD);
        write("no_interpreter", "parameters { key: \"EXECUTION_ENV_PATH\" value { string_value: "
            + "\"$$TRITON_MODEL_DIRECTORY/no-such-env\" } }", GOOD);
        PythonTests.writeModel(repository, "auto_complete", "name: \"auto_complete\" backend: \"python\"",
            AUTO_COMPLETE);
        PythonTests.writeModel(repository, "auto_complete_fails", "name: \"auto_complete_fails\" backend: \"python\"",
            AUTO_COMPLETE.replace("\"dims\": [4]})\n        auto_complete_model_config.add_output",
                "\"dims\": [4], \"shape\": [4]})\n        auto_complete_model_config.add_output"));
        final String[] models = Arrays.copyOf(BROKEN, BROKEN.length + 2);
        models[BROKEN.length] = "good";
        models[BROKEN.length + 1] = "auto_complete";
        core = InferenceCore.open(PythonTests.options(repository, models).build());
    }

    private static void write(final String name, final String extra, final String modelPy) throws Exception
    {
        PythonTests.writeModel(repository, name, "name: \"" + name + "\" " + CONFIG + extra, modelPy);
    }

    @AfterAll
    static void close()
    {
        PythonTests.close(core);
    }

    @Test
    void theGoodModelServesBesideTheBrokenOnes()
    {
        assertTrue(core.isModelReady("good", -1), PythonTests.loadFailure(core, "good"));
        for (final String broken : BROKEN)
        {
            assertFalse(core.isModelReady(broken, -1), broken + " must not load");
        }
        try (InferenceResponse response = TestModels.await(core.submit(new InferenceRequest("good")
            .addInput("INPUT0", DataType.FP32, new long[] {1}, PythonTests.floats(5))))
            .throwIfError())
        {
            assertArrayEquals(new float[] {5}, PythonTests.floatsOf(response, "OUTPUT0"));
        }
    }

    @Test
    void aSyntaxErrorIsReportedWithItsLine()
    {
        final String reason = PythonTests.loadFailure(core, "syntax_error");
        assertTrue(reason.contains("python model 'syntax_error' instance 'syntax_error_0': initialize() failed: "
            + "SyntaxError: expected ':'"), reason);
        assertTrue(reason.contains("model.py, line 5"), reason);
    }

    @Test
    void aModelWithoutTritonPythonModelOrExecuteIsRefused()
    {
        final String noClass = PythonTests.loadFailure(core, "no_class");
        assertTrue(noClass.contains("python model 'no_class'") && noClass.contains("defines no class "
            + "TritonPythonModel"), noClass);
        final String noExecute = PythonTests.loadFailure(core, "no_execute");
        assertTrue(noExecute.contains("does not implement `execute` method."), noExecute);
    }

    @Test
    void aFailingInitializeFailsTheLoadWithItsMessage()
    {
        final String reason = PythonTests.loadFailure(core, "initialize_fails");
        assertTrue(reason.contains("python model 'initialize_fails' instance 'initialize_fails_0': initialize() "
            + "failed: RuntimeError: the weights of initialize_fails are missing"), reason);
        assertTrue(reason.contains("initialize_fails/1/model.py(3): initialize"), reason);
    }

    @Test
    void configurationProblemsAreNamed()
    {
        final String noFile = PythonTests.loadFailure(core, "no_file");
        assertTrue(noFile.contains("python model 'no_file': Python model file not found in '")
            && noFile.contains("no_file/1/model.py'"), noFile);
        final String parameter = PythonTests.loadFailure(core, "bad_parameter");
        assertTrue(parameter.contains("python model 'bad_parameter': parameter INGOT_EXECUTE_TIMEOUT_SECONDS must be a "
            + "whole number, got 'soon'"), parameter);
        final String interpreter = PythonTests.loadFailure(core, "no_interpreter");
        assertTrue(interpreter.contains("python model 'no_interpreter': the Python interpreter ")
            && interpreter.contains("no_interpreter/no-such-env does not exist or is not executable"), interpreter);
    }

    @Test
    void autoCompleteConfigCompletesTheConfiguration()
    {
        assertTrue(core.isModelReady("auto_complete", -1), PythonTests.loadFailure(core, "auto_complete"));
        final ModelConfig config = core.modelConfig("auto_complete", -1);
        assertTrue(config.getMaxBatchSize() == 4 && config.hasDynamicBatching(), config.toString());
        assertTrue(config.getInput(0).getName().equals("INPUT0") && config.getInput(0).getDims(0) == 4,
            config.toString());
        try (InferenceResponse response = TestModels.await(core.submit(new InferenceRequest(
            "auto_complete").addInput("INPUT0", DataType.FP32, new long[] {1, 4},
            PythonTests.floats(1, 2, 3, 4)))).throwIfError())
        {
            assertArrayEquals(new float[] {2, 3, 4, 5}, PythonTests.floatsOf(response, "OUTPUT0"));
        }
    }

    @Test
    void aFailingAutoCompleteConfigFailsTheLoadWithTritonsMessage()
    {
        final String reason = PythonTests.loadFailure(core, "auto_complete_fails");
        assertTrue(reason.contains("python model 'auto_complete_fails': auto_complete_config failed: ValueError: "
            + "input 'INPUT0' in auto-complete-config function for model 'auto_complete_fails' contains property "
            + "other than 'name', 'data_type', 'dims' and 'optional'."), reason);
    }
}
