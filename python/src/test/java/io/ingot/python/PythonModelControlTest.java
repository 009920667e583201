package io.ingot.python;

import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceRequest;
import io.ingot.api.InferenceResponse;
import io.ingot.tensor.DataType;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Model control from a Python model ({@code pb_utils.load_model}, {@code unload_model}, {@code is_model_ready}), in
 * the style of Triton's qa model bls_model_loading: a load in {@code initialize} (while the core loads the calling
 * model) and in {@code execute}, an unload, a load with a configuration and files of the model's own, and a load that
 * fails with the core's reason; the calling model serves on.
 */
class PythonModelControlTest
{
    /** MODE 0 loads "target", 1 unloads it, 2 loads "generated" from files it gives, 3 loads a missing model. */
    private static final String CONTROLLER = """
        import json

        import numpy as np
        import triton_python_backend_utils as pb_utils

        GENERATED = '''
        import triton_python_backend_utils as pb_utils
        class TritonPythonModel:
            def execute(self, requests):
                return [pb_utils.InferenceResponse([pb_utils.get_input_tensor_by_name(r, "IN")]) for r in requests]
        '''


        class TritonPythonModel:
            def initialize(self, args):
                pb_utils.load_model("early")
                self.early = pb_utils.is_model_ready("early")

            def execute(self, requests):
                responses = []
                for request in requests:
                    mode = int(pb_utils.get_input_tensor_by_name(request, "MODE").as_numpy()[0])
                    result = {"early": self.early}
                    try:
                        if mode == 0:
                            pb_utils.load_model(model_name="target")
                            result["ready"] = pb_utils.is_model_ready("target", "1")
                        elif mode == 1:
                            pb_utils.unload_model("target")
                            result["ready"] = pb_utils.is_model_ready("target")
                        elif mode == 2:
                            config = json.dumps({"backend": "python", "max_batch_size": 0,
                                                 "input": [{"name": "IN", "data_type": "TYPE_FP32", "dims": [1]}],
                                                 "output": [{"name": "IN", "data_type": "TYPE_FP32", "dims": [1]}]})
                            pb_utils.load_model("generated", config, {"file:1/model.py": GENERATED.encode()})
                            result["ready"] = pb_utils.is_model_ready("generated", "1")
                        else:
                            pb_utils.load_model("missing")
                    except pb_utils.TritonModelException as error:
                        result["error"] = str(error)
                    responses.append(pb_utils.InferenceResponse([pb_utils.Tensor(
                        "TEXT", np.array([json.dumps(result).encode()], dtype=np.object_))]))
                return responses
        """;

    private static final String CONTROLLER_CONFIG = """
        name: "controller"
        backend: "python"
        input [ { name: "MODE" data_type: TYPE_INT32 dims: [ 1 ] } ]
        output [ { name: "TEXT" data_type: TYPE_STRING dims: [ 1 ] } ]
        """;

    private static final String IDENTITY = """
        import triton_python_backend_utils as pb_utils


        class TritonPythonModel:
            def execute(self, requests):
                return [pb_utils.InferenceResponse([pb_utils.get_input_tensor_by_name(r, "IN")]) for r in requests]
        """;

    @TempDir
    static Path repository;
    private static InferenceCore core;

    @BeforeAll
    static void open() throws Exception
    {
        PythonTests.requirePython(PythonModelControlTest.class);
        PythonTests.writeModel(repository, "controller", CONTROLLER_CONFIG, CONTROLLER);
        for (final String model : new String[] {"early", "target"})
        {
            PythonTests.writeModel(repository, model, "backend: \"python\" input [ { name: \"IN\" data_type: TYPE_FP32 "
                + "dims: [ 1 ] } ] output [ { name: \"IN\" data_type: TYPE_FP32 dims: [ 1 ] } ]", IDENTITY);
        }
        core = PythonTests.open(repository, "controller");
    }

    @AfterAll
    static void close()
    {
        PythonTests.close(core);
    }

    @Test
    void aModelLoadsAnotherInInitialize()
    {
        assertTrue(core.isModelReady("early", -1));
        assertTrue(call(0).contains("\"early\": true"));
    }

    @Test
    void aModelLoadsAndUnloadsAnotherInExecute()
    {
        assertTrue(call(0).contains("\"ready\": true"));
        assertTrue(core.isModelReady("target", 1));
        assertTrue(call(1).contains("\"ready\": false"));
        assertTrue(!core.isModelReady("target", -1));
    }

    @Test
    void aModelLoadsAnotherFromFilesItGives()
    {
        assertTrue(call(2).contains("\"ready\": true"));
        try (InferenceResponse response = TestModels.await(core.submit(new InferenceRequest("generated")
            .addInput("IN", DataType.FP32, new long[] {1}, PythonTests.floats(7)))).throwIfError())
        {
            assertEquals(7, response.output("IN").data().get(ValueLayout.JAVA_FLOAT, 0));
        }
    }

    @Test
    void aFailedLoadRaisesTheCoresReasonInTheModel()
    {
        final String result = call(3);
        assertTrue(result.contains("Failed to load model: failed to load 'missing'"), result);
        assertTrue(call(0).contains("\"ready\": true"), "the model serves on");
    }

    private static String call(final int mode)
    {
        try (InferenceResponse response = TestModels.await(core.submit(new InferenceRequest("controller")
            .addInput("MODE", DataType.INT32, new long[] {1}, MemorySegment.ofArray(new int[] {mode}))))
            .throwIfError())
        {
            return PythonTests.firstString(response, "TEXT");
        }
    }
}
