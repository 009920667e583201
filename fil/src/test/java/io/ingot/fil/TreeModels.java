package io.ingot.fil;

import io.ingot.fil.lightgbm.LgbmBooster;
import io.ingot.fil.lightgbm.LgbmTraining;
import io.ingot.fil.xgboost.XgbBooster;
import io.ingot.fil.xgboost.XgbTraining;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The test models, trained here through the libraries' C APIs on data whose answers are known, and FIL model
 * directories holding them.
 *
 * <ul>
 *   <li>{@link #steps}: 8 rows, feature 0 = 0..7, feature 1 = 0; a regression target of 1 for rows 0-3 and 5 for rows
 *       4-7. One tree of depth 1 with learning rate 1 and no regularisation predicts exactly 1 and 5;</li>
 *   <li>{@link #halves}: the same rows with labels 0 and 1, for binary classifiers;</li>
 *   <li>{@link #thirds}: 9 rows, feature 0 = 0..8, classes 0, 1, 2 by thirds, for 3-class models.</li>
 * </ul>
 */
final class TreeModels
{
    static final int FEATURES = 2;

    private TreeModels()
    {
    }

    /** @return 8 rows of 2 features: (i, 0) */
    static float[] steps()
    {
        final float[] x = new float[8 * FEATURES];
        for (int i = 0; i < 8; i++)
        {
            x[i * FEATURES] = i;
        }
        return x;
    }

    /** @return 9 rows of 2 features: (i, 0) */
    static float[] nine()
    {
        final float[] x = new float[9 * FEATURES];
        for (int i = 0; i < 9; i++)
        {
            x[i * FEATURES] = i;
        }
        return x;
    }

    static float[] stepTargets()
    {
        return new float[] {1, 1, 1, 1, 5, 5, 5, 5};
    }

    static float[] halves()
    {
        return new float[] {0, 0, 0, 0, 1, 1, 1, 1};
    }

    static float[] thirds()
    {
        return new float[] {0, 0, 0, 1, 1, 1, 2, 2, 2};
    }

    /** XGBoost parameters that make one round fit the training data's leaf means exactly. */
    static Map<String, String> xgbExact(final String objective)
    {
        final Map<String, String> params = new LinkedHashMap<>();
        params.put("objective", objective);
        params.put("tree_method", "exact");
        params.put("max_depth", objective.startsWith("multi") ? "2" : "1");
        params.put("eta", "1");
        params.put("lambda", "0");
        params.put("min_child_weight", "0");
        params.put("nthread", "1");
        return params;
    }

    static XgbBooster xgbRegressor()
    {
        return XgbTraining.train(steps(), FEATURES, stepTargets(), xgbExact("reg:squarederror"), 1);
    }

    static XgbBooster xgbBinary()
    {
        return XgbTraining.train(steps(), FEATURES, halves(), xgbExact("binary:logistic"), 1);
    }

    static XgbBooster xgbMulti(final String objective)
    {
        final Map<String, String> params = xgbExact(objective);
        params.put("num_class", "3");
        return XgbTraining.train(nine(), FEATURES, thirds(), params, 3);
    }

    /** LightGBM parameters for 8 or 9 rows: no minimum leaf size, one split, learning rate 1, no regularisation. */
    static String lgbmExact(final String objective)
    {
        return "objective=" + objective + " min_data_in_leaf=1 min_data_in_bin=1 min_sum_hessian_in_leaf=0"
            + " num_leaves=" + (objective.startsWith("multi") ? 3 : 2) + " learning_rate=1 lambda_l2=0 verbosity=-1"
            + " num_threads=1 deterministic=true" + (objective.startsWith("multi") ? " num_class=3" : "");
    }

    static LgbmBooster lgbmRegressor()
    {
        return LgbmTraining.train(steps(), FEATURES, stepTargets(), lgbmExact("regression"), 1);
    }

    static LgbmBooster lgbmBinary()
    {
        return LgbmTraining.train(steps(), FEATURES, halves(), lgbmExact("binary"), 1);
    }

    static LgbmBooster lgbmMulti()
    {
        return LgbmTraining.train(nine(), FEATURES, thirds(), lgbmExact("multiclass"), 3);
    }

    /**
     * Writes a FIL model directory: {@code <root>/<name>/config.pbtxt} and {@code 1/<file>}.
     *
     * @return the version directory
     */
    static Path xgbModel(final Path root, final String name, final XgbBooster booster, final String fileName,
        final String config) throws IOException
    {
        final Path version = Files.createDirectories(root.resolve(name).resolve("1"));
        booster.save(version.resolve(fileName));
        Files.writeString(root.resolve(name).resolve("config.pbtxt"), config);
        return version;
    }

    static Path lgbmModel(final Path root, final String name, final LgbmBooster booster, final String config)
        throws IOException
    {
        final Path version = Files.createDirectories(root.resolve(name).resolve("1"));
        booster.save(version.resolve("model.txt"));
        Files.writeString(root.resolve(name).resolve("config.pbtxt"), config);
        return version;
    }

    /**
     * A FIL configuration as Triton's FIL examples write it, with one thread per prediction ({@code cpu_nthread}):
     * OpenMP teams of every core on a shared machine cost milliseconds per call to these tiny models.
     *
     * @param name         model name
     * @param modelType    {@code model_type}
     * @param classifier   {@code is_classifier}
     * @param predictProba {@code predict_proba}
     * @param outputs      {@code output__0} dims
     * @param extra        more configuration text
     */
    static String config(final String name, final String modelType, final boolean classifier,
        final boolean predictProba, final int outputs, final String extra)
    {
        return """
            name: "%s"
            backend: "fil"
            max_batch_size: 64
            input [ { name: "input__0" data_type: TYPE_FP32 dims: [ %d ] } ]
            output [ { name: "output__0" data_type: TYPE_FP32 dims: [ %d ] } ]
            instance_group [ { kind: KIND_CPU } ]
            parameters [
              { key: "model_type" value: { string_value: "%s" } },
              { key: "is_classifier" value: { string_value: "%s" } },
              { key: "predict_proba" value: { string_value: "%s" } },
              { key: "cpu_nthread" value: { string_value: "1" } }
            ]
            %s
            """.formatted(name, FEATURES, outputs, modelType, classifier, predictProba, extra);
    }
}
