package io.ingot.repository;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ingot.backend.Backend;
import io.ingot.backend.BackendFactory;
import io.ingot.backend.ModelContext;
import io.ingot.backend.ModelVersion;
import io.ingot.config.ConfigException;
import io.ingot.config.NormalizeContext;
import io.ingot.config.proto.DataType;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelDynamicBatching;
import io.ingot.config.proto.ModelInput;
import io.ingot.config.proto.ModelOutput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The order in which a model's checks run, and so which error a broken model reports first, as Triton orders them:
 * core {@code src/model_repository_manager/model_repository_manager.cc} (read or empty config,
 * {@code GetNormalizedModelConfig}, {@code ValidateModelConfig}, {@code ValidateModelIOConfig} only without autofill,
 * then the directory-name check), {@code src/model_repository_manager/model_lifecycle.cc} ({@code VersionsToLoad},
 * "at least one version must be available…"), {@code src/backend_model.cc} ({@code TritonModel::Create}: backend
 * library lookup, {@code ValidateInstanceGroup}, the backend's auto-complete, then {@code Model::Init} in
 * {@code src/model.cc} validating everything again).
 */
class LoadOrderTest
{
    /** A config.pbtxt whose scheduling is invalid: a preferred batch size above max_batch_size. */
    private static final String BROKEN = """
        backend: "probe"
        max_batch_size: 4
        dynamic_batching { preferred_batch_size: [ 8 ] }
        input [ { name: "IN" data_type: TYPE_FP32 dims: [ 2 ] } ]
        output [ { name: "OUT" data_type: TYPE_FP32 dims: [ 2 ] } ]
        """;

    private static final String VALID = """
        backend: "probe"
        max_batch_size: 4
        input [ { name: "IN" data_type: TYPE_FP32 dims: [ 2 ] } ]
        output [ { name: "OUT" data_type: TYPE_FP32 dims: [ 2 ] } ]
        """;

    @TempDir
    Path repository;

    /** A backend that counts its auto-complete calls and, for a config without inputs, adds one of each. */
    private static final class ProbeBackend implements BackendFactory
    {
        final AtomicInteger completions = new AtomicInteger();

        @Override
        public String name()
        {
            return "probe";
        }

        @Override
        public ModelConfig autoComplete(final ModelConfig config, final Path modelDirectory,
            final List<ModelVersion> versions)
        {
            completions.incrementAndGet();
            if (config.getInputCount() > 0)
            {
                return config;
            }
            return config.toBuilder().setMaxBatchSize(8).setDynamicBatching(ModelDynamicBatching.getDefaultInstance())
                .addInput(ModelInput.newBuilder().setName("IN").setDataType(DataType.TYPE_FP32).addDims(2))
                .addOutput(ModelOutput.newBuilder().setName("OUT").setDataType(DataType.TYPE_FP32).addDims(2))
                .build();
        }

        @Override
        public Backend load(final ModelContext context)
        {
            throw new UnsupportedOperationException("never loaded here");
        }
    }

    private final ProbeBackend probe = new ProbeBackend();
    private final BackendRegistry registry = new BackendRegistry(List.of(probe));

    private void model(final String name, final String config, final String... versions) throws IOException
    {
        ModelDirectories.write(repository, name, config, "model.probe", versions);
    }

    private ScanResult scan(final boolean autoComplete) throws ConfigException
    {
        return ModelRepository.scan(repository, registry.autoCompleter(autoComplete), NormalizeContext.cpuOnly());
    }

    @Test
    void aBrokenConfigWithoutVersionDirectoriesReportsTheConfigError() throws Exception
    {
        model("broken", BROKEN);

        for (final boolean autoComplete : new boolean[] {true, false})
        {
            assertEquals("dynamic batching preferred size must be <= max batch size for broken",
                scan(autoComplete).failures().get("broken"), "auto-complete " + autoComplete);
        }
        assertEquals(0, probe.completions.get(), "the backend never completes an invalid configuration");
    }

    @Test
    void aValidConfigWithoutVersionDirectoriesReportsTheMissingVersions() throws Exception
    {
        model("empty", VALID);

        assertEquals("at least one version must be available under the version policy of model 'empty'",
            scan(true).failures().get("empty"));
    }

    @Test
    void theDirectoryNameIsCheckedAfterValidation() throws Exception
    {
        model("dir", "name: \"other\"\n" + BROKEN, "1");
        model("dir2", "name: \"other2\"\n" + VALID, "1");

        final ScanResult result = scan(true);

        assertEquals("dynamic batching preferred size must be <= max batch size for other",
            result.failures().get("dir"));
        assertEquals("unexpected directory name 'dir2' for model 'other2', directory name must equal model name",
            result.failures().get("dir2"));
    }

    @Test
    void inputsAreValidatedBeforeVersionsWhenNothingCanCompleteThem() throws Exception
    {
        final String incomplete = """
            backend: "probe"
            input [ { name: "IN" data_type: TYPE_FP32 } ]
            output [ { name: "OUT" data_type: TYPE_FP32 dims: [ 1 ] } ]
            """;
        model("io", incomplete);
        model("later", incomplete, "1");

        for (final boolean autoComplete : new boolean[] {true, false})
        {
            // No version directory: no backend can complete the inputs, so they are checked before the versions.
            assertEquals("model input 'IN' must specify 'dims' for io", scan(autoComplete).failures().get("io"),
                "auto-complete " + autoComplete);
        }
        // Strict mode checks them before the versions whatever the directory holds.
        assertEquals("model input 'IN' must specify 'dims' for later", scan(false).failures().get("later"));
        // With auto-complete and a version, the backend completes first, then everything is validated (Triton's
        // order), and the failure reads as Triton's load failure, status code first.
        assertEquals("Invalid argument: model input 'IN' must specify 'dims' for later",
            scan(true).failures().get("later"));
        assertEquals(2, probe.completions.get(), "only 'later' was completed, once in each of the two scans with"
            + " auto-complete");
    }

    @Test
    void aZeroDimensionWithoutVersionsReportsTheDimensionInEveryMode() throws Exception
    {
        model("zerodims", """
            backend: "probe"
            max_batch_size: 8
            input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 0 ] } ]
            output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]
            """);

        for (final boolean autoComplete : new boolean[] {true, false})
        {
            assertEquals("model input 'INPUT0' dimension must be integer >= 1, or -1 to indicate a variable-size"
                + " dimension for zerodims", scan(autoComplete).failures().get("zerodims"),
                "auto-complete " + autoComplete);
        }
    }

    @Test
    void aMissingBackendIsReportedAfterTheVersionsInTritonsWords() throws Exception
    {
        model("nobackend", VALID.replace("\"probe\"", "\"no_such\""), "1");
        model("noversion", VALID.replace("\"probe\"", "\"no_such\""));
        model("badgroup", VALID.replace("\"probe\"", "\"no_such\"")
            + "instance_group [ { kind: KIND_CPU gpus: [ 0 ] } ]", "1");

        final ScanResult result = scan(true);

        final String missing = result.failures().get("nobackend");
        assertTrue(missing.startsWith("Invalid argument: unable to find backend library for backend 'no_such', try"
            + " specifying runtime on the model configuration."), missing);
        assertTrue(missing.contains("available backends: [probe"), "Ingot's detail follows: " + missing);
        assertEquals("at least one version must be available under the version policy of model 'noversion'",
            result.failures().get("noversion"));
        assertTrue(result.failures().get("badgroup").startsWith("Invalid argument: unable to find backend library"),
            "the backend is looked up before the instance groups are validated: " + result.failures());
    }

    @Test
    void theRuntimeFieldMayNotEscapeTheBackendDirectory() throws Exception
    {
        model("escape", VALID + "runtime: \"../../lib/libevil.so\"", "1");
        model("absolute", VALID + "runtime: \"/usr/lib/libtriton_probe.so\"", "1");
        model("unknown", VALID + "runtime: \"libtriton_other.so\"", "1");
        model("own", VALID + "runtime: \"libtriton_probe.so\"", "1");
        model("inside", VALID + "runtime: \"sub/../libtriton_probe.so\"", "1");

        final ScanResult result = scan(true);

        // backend_model.cc GetBackendLibraryProperties: IsChildPathEscapingParentPath, then this message.
        assertEquals("Invalid argument: backend library name '../../lib/libevil.so' escapes backend directory 'probe',"
            + " for model 'escape', check model config runtime field", result.failures().get("escape"));
        assertTrue(result.failures().get("absolute").startsWith("Invalid argument: backend library name"
            + " '/usr/lib/libtriton_probe.so' escapes backend directory"), result.failures().get("absolute"));
        assertTrue(result.failures().get("unknown").startsWith("Invalid argument: unable to find backend library"
            + " 'libtriton_other.so' for model 'unknown', searched: "), result.failures().get("unknown"));
        assertTrue(result.model("own").isPresent(), "Triton's library name of the backend Ingot serves is accepted");
        assertFalse(result.failures().containsKey("inside"), result.failures().toString());
    }

    @Test
    void theBackendCompletesOnlyWhenAllowedAndItsResultIsNormalizedAndValidated() throws Exception
    {
        model("bare", "backend: \"probe\"", "1");

        final ScanResult enabled = scan(true);
        final ModelConfig completed = enabled.model("bare").orElseThrow().config();
        assertEquals("IN", completed.getInput(0).getName());
        assertEquals(List.of(8), completed.getDynamicBatching().getPreferredBatchSizeList(),
            "re-normalized after the backend completed it, as Triton's UpdateModelConfig does");
        assertEquals(1, probe.completions.get());

        final ScanResult disabled = scan(false);
        assertTrue(disabled.failures().isEmpty(), "a config without inputs is valid in strict mode: "
            + disabled.failures());
        assertEquals(0, disabled.model("bare").orElseThrow().config().getInputCount());
        assertEquals(1, probe.completions.get(), "no auto-complete in strict mode");
    }

    @Test
    void serverSideCompletionRunsEvenInStrictMode() throws Exception
    {
        model("plat", """
            platform: "onnxruntime_onnx"
            max_batch_size: 1
            input [ { name: "IN" data_type: TYPE_FP32 dims: [ 2 ] } ]
            output [ { name: "OUT" data_type: TYPE_FP32 dims: [ 2 ] } ]
            """, "1");

        final ScanResult result = ModelRepository.scan(repository, BackendAutoCompleter.none(),
            NormalizeContext.cpuOnly());

        final ModelConfig config = result.model("plat").orElseThrow().config();
        assertEquals("onnxruntime", config.getBackend(), "Triton's AutoCompleteBackendFields always runs");
        assertEquals("model.onnx", config.getDefaultModelFilename());
    }
}
