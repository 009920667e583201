package io.ingot.fil;

import io.ingot.backend.BackendFactory;
import io.ingot.config.proto.ModelConfig;
import io.ingot.fil.lightgbm.LgbmBooster;
import io.ingot.fil.xgboost.XgbBooster;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad models and configurations: each fails to load with a message naming the model and what was expected. */
class FilBackendFactoryTest
{
    @TempDir
    Path repo;

    @Test
    void isFoundByServiceLoaderUnderTritonsBackendName()
    {
        final BackendFactory found = ServiceLoader.load(BackendFactory.class).stream()
            .map(ServiceLoader.Provider::get)
            .filter(candidate -> candidate.name().equals("fil"))
            .findFirst().orElseThrow();
        assertTrue(found instanceof FilBackendFactory);
    }

    @Test
    void findsTheFileModelTypeNamesOrTheOneDefaultModelFilenameNames() throws Exception
    {
        try (XgbBooster booster = TreeModels.xgbRegressor())
        {
            TreeModels.xgbModel(repo, "named", booster, "model.json", TreeModels.config("named", "xgboost_json",
                false, false, 1, "default_model_filename: \"model.json\""));
            TreeModels.xgbModel(repo, "legacy_name", booster, "xgboost.model", TreeModels.config("legacy_name",
                "xgboost", false, false, 1, ""));
        }
        try (FilHarness fil = FilHarness.open(repo.resolve("named")))
        {
            assertEquals(5, fil.run(new float[] {7, 0}, 2)[0], 1e-5);
        }
        try (FilHarness fil = FilHarness.open(repo.resolve("legacy_name")))
        {
            assertEquals(1, fil.run(new float[] {0, 0}, 2)[0], 1e-5,
                "model_type xgboost reads xgboost.model, here holding JSON, which XGBoost 3 reads");
        }
    }

    @Test
    void namesTheModelAndTheFileWhenItIsMissing()
    {
        final String message = failure("ghost", TreeModels.config("ghost", "lightgbm", false, false, 1, ""), null);
        assertTrue(message.startsWith("model 'ghost' version 1: model file '"), message);
        assertTrue(message.contains("ghost/1/model.txt' does not exist (model_type \"lightgbm\" reads model.txt"),
            message);
    }

    @Test
    void namesTheModelAndTheLibrarysReasonForACorruptFile() throws Exception
    {
        final String xgb = failure("broken", TreeModels.config("broken", "xgboost_json", false, false, 1, ""),
            "xgboost.json", "{\"learner\": {\"truncated".getBytes(StandardCharsets.UTF_8));
        assertTrue(xgb.startsWith("model 'broken' version 1: XGBoost cannot read '"), xgb);
        assertTrue(xgb.contains("XGBoosterLoadModelFromBuffer failed: "), xgb);

        final String lgbm = failure("broken", TreeModels.config("broken", "lightgbm", false, false, 1, ""),
            "model.txt", "this is not a LightGBM model\n".getBytes(StandardCharsets.UTF_8));
        assertTrue(lgbm.startsWith("model 'broken' version 1: LightGBM cannot read '"), lgbm);
        assertTrue(lgbm.contains("LGBM_BoosterCreateFromModelfile failed: Unknown model format"), lgbm);

        final String text = failure("broken", TreeModels.config("broken", "xgboost_json", false, false, 1, ""),
            "xgboost.json", "tree\nversion=v3\n".getBytes(StandardCharsets.UTF_8));
        assertTrue(text.endsWith("is not an XGBoost model (expected XGBoost JSON or UBJSON for model_type"
            + " \"xgboost_json\")"), text);
    }

    @Test
    void saysWhatToDoWithALegacyBinaryModelAndAFormatThatIsNotTheConfiguredOne() throws Exception
    {
        final String legacy = failure("old", TreeModels.config("old", "xgboost", false, false, 1, ""),
            "xgboost.model", new byte[] {'b', 'i', 'n', 'f', 0, 0, 0, 0});
        assertTrue(legacy.contains("is in XGBoost's legacy binary format, which XGBoost 3.4 no longer reads"), legacy);

        try (XgbBooster booster = TreeModels.xgbRegressor())
        {
            TreeModels.xgbModel(repo, "mixed", booster, "xgboost.json", TreeModels.config("mixed", "xgboost_ubj",
                false, false, 1, "default_model_filename: \"xgboost.json\""));
        }
        final String mixed = failure(repo.resolve("mixed"));
        assertTrue(mixed.endsWith("model_type is \"xgboost_ubj\" but '" + repo.resolve("mixed/1/xgboost.json")
            + "' holds XGBoost JSON: set model_type to \"xgboost_json\""), mixed);
    }

    @Test
    void rejectsAConfigurationWhoseFeatureCountOrOutputDisagreesWithTheModel() throws Exception
    {
        try (LgbmBooster booster = TreeModels.lgbmMulti())
        {
            TreeModels.lgbmModel(repo, "wide", booster, TreeModels.config("wide", "lightgbm", false, false, 1, "")
                .replace("dims: [ 2 ]", "dims: [ 7 ]"));
        }
        final String message = failure(repo.resolve("wide"));
        assertTrue(message.startsWith("model 'wide' version 1: the configuration disagrees with the model"
            + " (LightGBM 3.2.1, 3 iterations, 2 features, 3 classes"), message);
        assertTrue(message.contains("input 'input__0' has dims [7] but the model takes 2 features per row:"
            + " dims [2]"), message);
        assertTrue(message.contains("output 'output__0' has dims [1] but the model predicts 3 values per row (it is"
            + " a 3-class model: set is_classifier \"true\" for class ids): dims [3]"), message);
    }

    @Test
    void rejectsDatatypesTheLibraryDoesNotReadAndNamesTheOnesItDoes() throws Exception
    {
        try (XgbBooster xgb = TreeModels.xgbRegressor(); LgbmBooster lgbm = TreeModels.lgbmRegressor())
        {
            TreeModels.xgbModel(repo, "xgb_bool", xgb, "xgboost.json", TreeModels.config("xgb_bool", "xgboost_json",
                false, false, 1, "").replace("TYPE_FP32 dims: [ 2 ]", "TYPE_BOOL dims: [ 2 ]"));
            TreeModels.lgbmModel(repo, "lgbm_int", lgbm, TreeModels.config("lgbm_int", "lightgbm", false, false, 1,
                "").replace("TYPE_FP32 dims: [ 2 ]", "TYPE_INT32 dims: [ 2 ]").replace(
                    "output__0\" data_type: TYPE_FP32", "output__0\" data_type: TYPE_FP64"));
        }
        final String xgb = failure(repo.resolve("xgb_bool"));
        assertTrue(xgb.contains("input 'input__0' has data type TYPE_BOOL, which XGBoost 3.4.0 does not read in"
            + " place; use TYPE_FP32, TYPE_FP64, TYPE_INT16, TYPE_INT32, TYPE_INT64, TYPE_INT8, TYPE_UINT16,"
            + " TYPE_UINT32, TYPE_UINT64, TYPE_UINT8"), xgb);
        final String lgbm = failure(repo.resolve("lgbm_int"));
        assertTrue(lgbm.contains("input 'input__0' has data type TYPE_INT32, which LightGBM 3.2.1 does not read in"
            + " place; use TYPE_FP32, TYPE_FP64"), lgbm);
        assertTrue(lgbm.contains("output 'output__0' has data type TYPE_FP64; the FIL backend writes TYPE_FP32"),
            lgbm);
    }

    @Test
    void rejectsOtherTensorNamesAndTreeShap() throws Exception
    {
        try (XgbBooster booster = TreeModels.xgbRegressor())
        {
            TreeModels.xgbModel(repo, "names", booster, "xgboost.json", TreeModels.config("names", "xgboost_json",
                false, false, 1, "output [ { name: \"treeshap_output\" data_type: TYPE_FP32 dims: [ 3 ] } ]")
                .replace("input__0", "features"));
        }
        final String message = failure(repo.resolve("names"));
        assertTrue(message.contains("the FIL backend takes exactly one input, 'input__0' (dims [2]), the"
            + " configuration has 'features'"), message);
        assertTrue(message.contains("output 'treeshap_output' (SHAP values) is not supported by Ingot's FIL backend"),
            message);
    }

    @Test
    void reportsParametersAsTritonsFilBackendDoes() throws Exception
    {
        try (XgbBooster booster = TreeModels.xgbRegressor())
        {
            TreeModels.xgbModel(repo, "m", booster, "xgboost.json", "");
        }
        final String base = TreeModels.config("m", "xgboost_json", false, false, 1, "");
        assertEquals("model 'm' version 1: Required parameter is_classifier not found in config",
            failure("m", base.replace("{ key: \"is_classifier\" value: { string_value: \"false\" } },", ""), ""));
        assertEquals("model 'm' version 1: Expected 'true' or 'false' for parameter 'predict_proba', got: 'yes'",
            failure("m", base.replace("\"predict_proba\" value: { string_value: \"false\"",
                "\"predict_proba\" value: { string_value: \"yes\""), ""));
        assertEquals("model 'm' version 1: xgb not recognized as a valid serialization format.",
            failure("m", base.replace("xgboost_json", "xgb"), ""));
        final String treelite = failure("m", base.replace("xgboost_json", "treelite_checkpoint")
            + "default_model_filename: \"xgboost.json\"", "");
        assertTrue(treelite.startsWith("model 'm' version 1: model_type \"treelite_checkpoint\" needs Treelite"),
            treelite);
    }

    @Test
    void honoursTheRemovedOutputClassParameterAndWarnsAboutIt() throws Exception
    {
        final ModelConfig config = TestModels.config(TreeModels.config("m", "xgboost_json", true, false, 1, "")
            .replace("{ key: \"is_classifier\" value: { string_value: \"true\" } },",
                "{ key: \"output_class\" value: { string_value: \"false\" } }, { key: \"algo\" value: {"
                    + " string_value: \"ALGO_AUTO\" } },"));
        final FilParameters parameters = FilParameters.from(config);
        assertEquals(false, parameters.isClassifier());
        assertEquals(2, parameters.warnings().size());
        assertTrue(parameters.warnings().contains("The `output_class` parameter has been removed in 25.09 release. Use"
            + " `is_classifier` instead."), parameters.warnings().toString());
    }

    /** Writes a model file and a configuration under {@code <repo>/<name>} and returns the load error. */
    private String failure(final String name, final String config, final String fileName, final byte[] bytes)
        throws Exception
    {
        final Path version = Files.createDirectories(repo.resolve(name).resolve("1"));
        Files.write(version.resolve(fileName), bytes);
        return failure(name, config, "");
    }

    /** Loads {@code <repo>/<name>} with the configuration given (its files as they are) and returns the error. */
    private String failure(final String name, final String config, final String unused)
    {
        final ModelConfig parsed = TestModels.config(config);
        return assertThrows(FilModelException.class, () -> new FilBackendFactory().load(FilHarness.context(parsed,
            repo.resolve(name)))).getMessage();
    }

    private static String failure(final Path modelDirectory) throws Exception
    {
        final ModelConfig config = TestModels.config(Files.readString(modelDirectory.resolve("config.pbtxt")));
        return assertThrows(FilModelException.class, () -> new FilBackendFactory().load(FilHarness.context(config,
            modelDirectory))).getMessage();
    }
}
