package io.ingot.repository;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ingot.backend.ModelVersion;
import io.ingot.config.ConfigException;
import io.ingot.config.NormalizeContext;
import io.ingot.config.proto.DataType;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelInput;
import io.ingot.config.proto.ModelInstanceGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

class ModelRepositoryTest
{
    private static final String ONNX_CONFIG = """
        backend: "onnxruntime"
        max_batch_size: 4
        input [ { name: "IN" data_type: TYPE_FP32 dims: [ 2 ] } ]
        output [ { name: "OUT" data_type: TYPE_FP32 dims: [ 2 ] } ]
        """;

    @TempDir
    Path repository;

    private Path model(final String name, final String config, final String... versions) throws IOException
    {
        return ModelDirectories.write(repository, name, config, "model.onnx", versions);
    }

    /** Auto-complete disabled (strict): every model here has a complete config.pbtxt. */
    private ScanResult scan() throws ConfigException
    {
        return ModelRepository.scan(repository, BackendAutoCompleter.none(), NormalizeContext.cpuOnly());
    }

    /** Auto-complete enabled, with a backend that has nothing to add. */
    private ScanResult scanAutoCompleting() throws ConfigException
    {
        return ModelRepository.scan(repository, (config, directory, versions) -> config,
            NormalizeContext.cpuOnly());
    }

    private static List<Long> versions(final PreparedModel model)
    {
        return model.versions().stream().map(ModelVersion::version).toList();
    }

    @Test
    void preparesAModelWithItsNormalizedConfigAndFile() throws Exception
    {
        final Path directory = model("simple", ONNX_CONFIG, "1");

        final ScanResult result = scan();

        assertEquals(List.of(), List.copyOf(result.failures().keySet()));
        final PreparedModel model = result.model("simple").orElseThrow();
        assertEquals(directory, model.directory());
        assertEquals("simple", model.config().getName());
        assertEquals("onnxruntime_onnx", model.config().getPlatform());
        assertEquals(1, model.config().getVersionPolicy().getLatest().getNumVersions());
        assertTrue(model.config().getOptimization().getInputPinnedMemory().getEnable());
        assertEquals(ModelInstanceGroup.Kind.KIND_CPU, model.config().getInstanceGroup(0).getKind());
        assertEquals(2, model.config().getInstanceGroup(0).getCount());
        final ModelVersion version = model.versions().getFirst();
        assertEquals(1, version.version());
        assertEquals(directory.resolve("1"), version.directory());
        assertEquals(directory.resolve("1").resolve("model.onnx"), version.modelFile());
    }

    @Test
    void versionZeroIsValidLeadingZerosAndNonNumericNamesAreIgnored() throws Exception
    {
        model("m", ONNX_CONFIG + "version_policy { all { } }", "0", "01", "007", "abc", "2", "1x");
        Files.createDirectories(repository.resolve("m").resolve("warmup"));
        Files.createDirectories(repository.resolve("m").resolve("initial_state"));
        Files.createDirectories(repository.resolve("m").resolve("configs"));
        Files.writeString(repository.resolve("m").resolve("3"), "a file is never a version");

        final ScanResult result = scan();

        assertEquals(List.of(0L, 2L), versions(result.model("m").orElseThrow()));
        assertTrue(result.warnings().contains("ignore version directory '01' of model 'm' which contains leading "
            + "zeros in its directory name"), result.warnings().toString());
        assertTrue(result.warnings().contains("ignore version directory 'abc' of model 'm' which fails to convert "
            + "to integral number"), result.warnings().toString());
        assertFalse(result.warnings().stream().anyMatch(w -> w.contains("warmup") || w.contains("configs")),
            "reserved directories are skipped silently");
    }

    @Test
    void aMetricControlForAFamilyTritonCannotCustomizeLoadsWithTritonsWarning() throws Exception
    {
        final String control = "model_metrics { metric_control: [ { metric_identifier: { family: \"%s\" }"
            + " histogram_options: { buckets: [ 1, 2, 4, 8 ] } } ] }\n";
        model("m", ONNX_CONFIG + control.formatted("nv_inference_request_success"), "1");
        model("h", ONNX_CONFIG + control.formatted(
            "nv_inference_first_response_histogram_ms"), "1");

        final ScanResult result = scan();

        assertEquals(List.of(), List.copyOf(result.failures().keySet()));
        assertTrue(result.warnings().contains("Metric family 'nv_inference_request_success' in 'metric_identifier' is"
            + " not a customizable metric in Triton core."), result.warnings().toString());
        assertTrue(result.warnings().contains("model 'h': metric family 'nv_inference_first_response_histogram_ms' is"
            + " not exported by Ingot; its histogram_options have no effect"), result.warnings().toString());
    }

    @Test
    void latestPolicySelectsTheNumericallyHighest() throws Exception
    {
        model("one", ONNX_CONFIG, "1", "9", "10");
        model("two", ONNX_CONFIG + "version_policy { latest { num_versions: 2 } }", "1", "9", "10");

        final ScanResult result = scan();

        assertEquals(List.of(10L), versions(result.model("one").orElseThrow()), "default latest{1}, not '9'");
        assertEquals(List.of(9L, 10L), versions(result.model("two").orElseThrow()));
    }

    @Test
    void specificPolicyWarnsAboutMissingVersions() throws Exception
    {
        model("m", ONNX_CONFIG + "version_policy { specific { versions: [ 1, 3, 5 ] } }", "1", "2", "3");

        final ScanResult result = scan();

        assertEquals(List.of(1L, 3L), versions(result.model("m").orElseThrow()));
        assertTrue(result.warnings().contains("version 5 is specified for model 'm', but the version directory is "
            + "not present"), result.warnings().toString());
    }

    @Test
    void noSelectedVersionFailsWithTritonsMessage() throws Exception
    {
        model("m", ONNX_CONFIG + "version_policy { specific { versions: [ 7 ] } }", "1");
        model("empty", ONNX_CONFIG);

        final ScanResult result = scan();

        assertEquals("at least one version must be available under the version policy of model 'm'",
            result.failures().get("m"));
        assertEquals("at least one version must be available under the version policy of model 'empty'",
            result.failures().get("empty"));
    }

    @Test
    void aBrokenModelDoesNotStopTheOthers() throws Exception
    {
        model("a_good", ONNX_CONFIG, "1");
        model("b_broken", "max_batch_size: 4\n  this_is_not_a_field: 1\n", "1");
        model("c_invalid", ONNX_CONFIG + "dynamic_batching { preferred_batch_size: [ 8 ] }", "1");
        model("d_good", ONNX_CONFIG, "3");

        final ScanResult result = scan();

        assertEquals(List.of("a_good", "d_good"), result.models().stream().map(PreparedModel::name).toList());
        final String broken = result.failures().get("b_broken");
        assertTrue(broken.contains("config.pbtxt: line 2, column 3"), broken);
        assertEquals("dynamic batching preferred size must be <= max batch size for c_invalid",
            result.failures().get("c_invalid"));
    }

    @Test
    void aFaultyBackendCompleterFailsOnlyItsModel() throws Exception
    {
        model("a", ONNX_CONFIG, "1");
        model("b", ONNX_CONFIG, "1");
        final BackendAutoCompleter faulty = (config, directory, versions) ->
        {
            if (config.getName().equals("a"))
            {
                throw new IllegalStateException("engine exploded");
            }
            return config;
        };

        final ScanResult result = ModelRepository.scan(repository, faulty, NormalizeContext.cpuOnly());

        assertTrue(result.failures().get("a").contains("engine exploded"), result.failures().toString());
        assertTrue(result.model("b").isPresent());
    }

    @Test
    void nameMustEqualTheDirectory() throws Exception
    {
        model("dir_name", "name: \"other\"\n" + ONNX_CONFIG, "1");

        assertEquals("unexpected directory name 'dir_name' for model 'other', directory name must equal model name",
            scan().failures().get("dir_name"));
    }

    @Test
    void withoutConfigEverythingComesFromAutoComplete() throws Exception
    {
        final Path directory = model("bare", null, "1");
        final List<List<ModelVersion>> seen = new ArrayList<>();
        final BackendAutoCompleter completer = (config, modelDirectory, versions) ->
        {
            assertEquals(directory, modelDirectory);
            assertEquals("onnxruntime", config.getBackend(), "platform and backend are known before the backend");
            seen.add(versions);
            return config.toBuilder().setMaxBatchSize(8)
                .addInput(ModelInput.newBuilder().setName("X").setDataType(DataType.TYPE_FP32).addDims(3))
                .build();
        };

        final ScanResult result = ModelRepository.scan(repository, completer, NormalizeContext.cpuOnly());

        final ModelConfig config = result.model("bare").orElseThrow().config();
        assertEquals("bare", config.getName());
        assertEquals("onnxruntime_onnx", config.getPlatform());
        assertEquals(8, config.getMaxBatchSize());
        assertEquals("X", config.getInput(0).getName());
        assertEquals(1, seen.size());
        assertEquals(1, seen.getFirst().getFirst().version());
    }

    @Test
    void platformIsInferredFromTheLexicographicallyFirstVersion() throws Exception
    {
        final Path directory = Files.createDirectories(repository.resolve("mixed"));
        Files.writeString(Files.createDirectories(directory.resolve("10")).resolve("model.plan"), "plan");
        Files.writeString(Files.createDirectories(directory.resolve("9")).resolve("model.onnx"), "onnx");

        final PreparedModel model = scanAutoCompleting().model("mixed").orElseThrow();

        assertEquals("tensorrt_plan", model.config().getPlatform(), "'10' sorts before '9' as a string");
        assertEquals(directory.resolve("10").resolve("model.plan"), model.versions().getFirst().modelFile());
    }

    @Test
    void aDirectoryWithNeitherConfigNorVersionsFailsClearly() throws Exception
    {
        Files.createDirectories(repository.resolve("nothing"));
        final Path noFiles = Files.createDirectories(repository.resolve("no_files").resolve("1"));

        final ScanResult result = scanAutoCompleting();

        // Triton's AutoCompleteBackendFields (core src/model_config_utils.cc) on an empty configuration.
        final String nothing = result.failures().get("nothing");
        assertTrue(nothing.startsWith("Invalid model name: Could not determine backend for model 'nothing' with no"
            + " backend in model configuration. Expected model name of the form 'model.<backend_name>'."), nothing);
        final String empty = result.failures().get("no_files");
        assertTrue(empty.contains("Could not determine backend for model 'no_files'"), empty);
        assertTrue(empty.contains(noFiles.toString()), empty);
    }

    @Test
    void withAutoCompleteDisabledAModelNeedsAConfigFile() throws Exception
    {
        final Path directory = model("bare", null, "1");

        // Triton reads config.pbtxt unconditionally when autofill is off (core src/model_repository_manager/
        // model_repository_manager.cc), and LocalFileSystem::ReadTextFile words the failure.
        assertEquals("failed to open text file for read " + directory.resolve("config.pbtxt") + ": No such file or"
            + " directory (auto-complete is disabled, so model 'bare' needs a config.pbtxt)",
            scan().failures().get("bare"));
    }

    @Test
    void filesBesideModelsAreIgnored() throws Exception
    {
        Files.writeString(repository.resolve("README.md"), "not a model");
        model("m", ONNX_CONFIG, "1");

        final ScanResult result = scan();

        assertEquals(1, result.models().size());
        assertTrue(result.failures().isEmpty());
    }

    @Test
    void modelConfigNameSelectsAnAlternativeConfigAndFallsBack() throws Exception
    {
        final Path a = model("a", ONNX_CONFIG, "1");
        Files.createDirectories(a.resolve("configs"));
        Files.writeString(a.resolve("configs").resolve("small.pbtxt"), ONNX_CONFIG.replace("max_batch_size: 4",
            "max_batch_size: 2"));
        model("b", ONNX_CONFIG, "1");

        final ScanResult result = ModelRepository.scan(repository, "small", BackendAutoCompleter.none(),
            NormalizeContext.cpuOnly());

        assertEquals(2, result.model("a").orElseThrow().config().getMaxBatchSize());
        assertEquals(4, result.model("b").orElseThrow().config().getMaxBatchSize(), "falls back to config.pbtxt");
        assertThrows(ConfigException.class, () -> ModelRepository.scan(repository, "../x",
            BackendAutoCompleter.none(), NormalizeContext.cpuOnly()));
    }

    @Test
    void onnxModelDirectoryResolvesToTheFileInside() throws Exception
    {
        final Path directory = Files.createDirectories(repository.resolve("large").resolve("1").resolve("model.onnx"));
        Files.writeString(directory.resolve("model.onnx"), "onnx");
        Files.writeString(repository.resolve("large").resolve("config.pbtxt"), ONNX_CONFIG);

        final ModelVersion version = scan().model("large").orElseThrow().versions().getFirst();

        assertEquals(directory.resolve("model.onnx"), version.modelFile());
    }

    @Test
    void aModelInTwoRepositoriesFails(@TempDir final Path second) throws Exception
    {
        model("dup", ONNX_CONFIG, "1");
        model("only_first", ONNX_CONFIG, "1");
        Files.writeString(Files.createDirectories(second.resolve("dup").resolve("1")).resolve("model.onnx"), "x");
        Files.writeString(second.resolve("dup").resolve("config.pbtxt"), ONNX_CONFIG);

        final ScanResult result = ModelRepository.scan(List.of(repository, second), "", BackendAutoCompleter.none(),
            NormalizeContext.cpuOnly());

        assertTrue(result.failures().get("dup").contains("more than one model repository"));
        assertTrue(result.model("only_first").isPresent());
    }

    @Test
    void aMissingRepositoryIsNotFound()
    {
        final ConfigException e = assertThrows(ConfigException.class, () -> ModelRepository.scan(
            repository.resolve("absent"), BackendAutoCompleter.none(), NormalizeContext.cpuOnly()));
        assertEquals(ConfigException.Category.NOT_FOUND, e.category());
    }

    @Test
    void gpuContextPlacesAutoGroupsOnEveryGpu() throws Exception
    {
        model("m", ONNX_CONFIG, "1");

        final ScanResult result = ModelRepository.scan(repository, BackendAutoCompleter.none(),
            NormalizeContext.withGpus(0, 1));

        final ModelInstanceGroup group = result.model("m").orElseThrow().config().getInstanceGroup(0);
        assertEquals(ModelInstanceGroup.Kind.KIND_GPU, group.getKind());
        assertEquals(List.of(0, 1), group.getGpusList());
        assertEquals(1, group.getCount());
    }
}
