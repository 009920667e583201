package io.ingot.fil;

import io.ingot.fil.lightgbm.LgbmBooster;
import io.ingot.fil.xgboost.XgbBooster;
import io.ingot.tensor.DataType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Models trained here through the libraries' C APIs on data with known answers, served by the FIL backend: the
 * values, Triton's post-processing (class ids, thresholds, probability pairs, softmax) and every input element type
 * each library reads in place.
 */
class KnownAnswersTest
{
    /** sigmoid(2): one Newton step from a 0.5 intercept on four 0s and four 1s gives leaves -2 and +2. */
    private static final float P_HIGH = (float)(1 / (1 + Math.exp(-2)));
    private static final float P_LOW = 1 - P_HIGH;
    private static final float EPS = 1e-5f;

    @TempDir
    Path repo;

    @Test
    void xgboostRegressionPredictsTheLeafMeans() throws Exception
    {
        try (XgbBooster booster = TreeModels.xgbRegressor())
        {
            TreeModels.xgbModel(repo, "reg", booster, "xgboost.json",
                TreeModels.config("reg", "xgboost_json", false, false, 1, ""));
        }
        try (FilHarness fil = FilHarness.open(repo.resolve("reg")))
        {
            assertArrayEquals(new float[] {1, 1, 1, 1, 5, 5, 5, 5}, fil.run(TreeModels.steps(), 2), EPS);
            assertArrayEquals(new float[] {5, 1}, fil.run(new float[] {6.5f, 0, 0.25f, 0}, 2), EPS);
        }
    }

    @Test
    void xgboostReadsEveryIntegerAndFloatTypeInPlace() throws Exception
    {
        try (XgbBooster booster = TreeModels.xgbRegressor())
        {
            TreeModels.xgbModel(repo, "reg", booster, "xgboost.ubj", TreeModels.config("reg", "xgboost_ubj", false,
                false, 1, ""));
        }
        final float[] expected = {1, 1, 5, 5};
        final Object[][] cases = {
            {DataType.FP64, new double[] {0, 0, 3, 0, 4, 0, 7, 0}},
            {DataType.INT8, new byte[] {0, 0, 3, 0, 4, 0, 7, 0}},
            {DataType.UINT8, new byte[] {0, 0, 3, 0, 4, 0, 7, 0}},
            {DataType.INT16, new short[] {0, 0, 3, 0, 4, 0, 7, 0}},
            {DataType.UINT16, new short[] {0, 0, 3, 0, 4, 0, 7, 0}},
            {DataType.INT32, new int[] {0, 0, 3, 0, 4, 0, 7, 0}},
            {DataType.UINT32, new int[] {0, 0, 3, 0, 4, 0, 7, 0}},
            {DataType.INT64, new long[] {0, 0, 3, 0, 4, 0, 7, 0}},
            {DataType.UINT64, new long[] {0, 0, 3, 0, 4, 0, 7, 0}},
        };
        for (final Object[] each : cases)
        {
            final DataType type = (DataType)each[0];
            final String config = TreeModels.config("reg", "xgboost_ubj", false, false, 1, "")
                .replace("TYPE_FP32 dims: [ 2 ]", "TYPE_" + type.name() + " dims: [ 2 ]");
            java.nio.file.Files.writeString(repo.resolve("reg").resolve("config.pbtxt"), config);
            try (FilHarness fil = FilHarness.open(repo.resolve("reg")))
            {
                assertArrayEquals(expected, fil.run(type, each[1], 4, 2), EPS, type.name());
            }
        }
    }

    @Test
    void xgboostBinaryClassifierGivesClassIdsProbabilitiesAndPairs() throws Exception
    {
        try (XgbBooster booster = TreeModels.xgbBinary())
        {
            TreeModels.xgbModel(repo, "ids", booster, "xgboost.json",
                TreeModels.config("ids", "xgboost_json", true, false, 1, ""));
            TreeModels.xgbModel(repo, "strict", booster, "xgboost.json",
                TreeModels.config("strict", "xgboost_json", true, false, 1,
                    "parameters { key: \"threshold\" value { string_value: \"0.9\" } }"));
            TreeModels.xgbModel(repo, "p", booster, "xgboost.json",
                TreeModels.config("p", "xgboost_json", true, true, 1, ""));
            TreeModels.xgbModel(repo, "pair", booster, "xgboost.json",
                TreeModels.config("pair", "xgboost_json", true, true, 2, ""));
        }
        final float[] rows = {1, 0, 6, 0};
        try (FilHarness fil = FilHarness.open(repo.resolve("ids")))
        {
            assertArrayEquals(new float[] {0, 1}, fil.run(rows, 2));
        }
        try (FilHarness fil = FilHarness.open(repo.resolve("strict")))
        {
            assertArrayEquals(new float[] {0, 0}, fil.run(rows, 2), "p = 0.88 is not above a threshold of 0.9");
        }
        try (FilHarness fil = FilHarness.open(repo.resolve("p")))
        {
            assertArrayEquals(new float[] {P_LOW, P_HIGH}, fil.run(rows, 2), EPS);
        }
        try (FilHarness fil = FilHarness.open(repo.resolve("pair")))
        {
            assertArrayEquals(new float[] {P_HIGH, P_LOW, P_LOW, P_HIGH}, fil.run(rows, 2), EPS);
        }
    }

    @Test
    void xgboostMultiClassGivesTheArgMaxOrProbabilitiesForSoftprobAndSoftmaxAlike() throws Exception
    {
        try (XgbBooster softprob = TreeModels.xgbMulti("multi:softprob");
            XgbBooster softmax = TreeModels.xgbMulti("multi:softmax"))
        {
            TreeModels.xgbModel(repo, "prob_ids", softprob, "xgboost.json",
                TreeModels.config("prob_ids", "xgboost_json", true, false, 1, ""));
            TreeModels.xgbModel(repo, "prob_p", softprob, "xgboost.json",
                TreeModels.config("prob_p", "xgboost_json", true, true, 3, ""));
            TreeModels.xgbModel(repo, "max_ids", softmax, "xgboost.json",
                TreeModels.config("max_ids", "xgboost_json", true, false, 1, ""));
            TreeModels.xgbModel(repo, "max_p", softmax, "xgboost.json",
                TreeModels.config("max_p", "xgboost_json", true, true, 3, ""));
        }
        final float[] rows = TreeModels.nine();
        final float[] classes = TreeModels.thirds();
        float[] softprob;
        try (FilHarness fil = FilHarness.open(repo.resolve("prob_ids")))
        {
            assertArrayEquals(classes, fil.run(rows, 2));
        }
        try (FilHarness fil = FilHarness.open(repo.resolve("max_ids")))
        {
            assertArrayEquals(classes, fil.run(rows, 2));
        }
        try (FilHarness fil = FilHarness.open(repo.resolve("prob_p")))
        {
            softprob = fil.run(rows, 2);
        }
        for (int row = 0; row < 9; row++)
        {
            assertEquals(1, softprob[3 * row] + softprob[3 * row + 1] + softprob[3 * row + 2], EPS);
            assertEquals(softprob[3 * row + (int)classes[row]], max(softprob, row), 0, "row " + row);
        }
        try (FilHarness fil = FilHarness.open(repo.resolve("max_p")))
        {
            assertArrayEquals(softprob, fil.run(rows, 2), EPS,
                "a multi:softmax model's softmax of margins is the same model's multi:softprob output");
        }
    }

    @Test
    void lightgbmRegressionAndBinaryClassifierGiveTheKnownAnswers() throws Exception
    {
        try (LgbmBooster regressor = TreeModels.lgbmRegressor(); LgbmBooster binary = TreeModels.lgbmBinary())
        {
            TreeModels.lgbmModel(repo, "reg", regressor, TreeModels.config("reg", "lightgbm", false, false, 1, ""));
            TreeModels.lgbmModel(repo, "reg64", regressor, TreeModels.config("reg64", "lightgbm", false, false, 1, "")
                .replace("TYPE_FP32 dims: [ 2 ]", "TYPE_FP64 dims: [ 2 ]"));
            TreeModels.lgbmModel(repo, "pair", binary, TreeModels.config("pair", "lightgbm", true, true, 2, ""));
            TreeModels.lgbmModel(repo, "ids", binary, TreeModels.config("ids", "lightgbm", true, false, 1,
                "parameters { key: \"threshold\" value { string_value: \"0.3\" } }"));
        }
        try (FilHarness fil = FilHarness.open(repo.resolve("reg")))
        {
            assertArrayEquals(new float[] {1, 1, 1, 1, 5, 5, 5, 5}, fil.run(TreeModels.steps(), 2), EPS);
            assertArrayEquals(new float[] {1}, fil.run(new float[] {2, 0}, 2), EPS, "one row: the fast path");
        }
        try (FilHarness fil = FilHarness.open(repo.resolve("reg64")))
        {
            assertArrayEquals(new float[] {5, 1}, fil.run(DataType.FP64, new double[] {7, 0, 0, 0}, 2, 2), EPS);
            assertArrayEquals(new float[] {5}, fil.run(DataType.FP64, new double[] {4, 0}, 1, 2), EPS);
        }
        try (FilHarness fil = FilHarness.open(repo.resolve("pair")))
        {
            assertArrayEquals(new float[] {P_HIGH, P_LOW, P_LOW, P_HIGH}, fil.run(new float[] {1, 0, 6, 0}, 2), EPS);
        }
        try (FilHarness fil = FilHarness.open(repo.resolve("ids")))
        {
            assertArrayEquals(new float[] {0, 1}, fil.run(new float[] {1, 0, 6, 0}, 2));
        }
    }

    @Test
    void lightgbmMultiClassGivesTheArgMaxOrProbabilities() throws Exception
    {
        try (LgbmBooster multi = TreeModels.lgbmMulti())
        {
            TreeModels.lgbmModel(repo, "ids", multi, TreeModels.config("ids", "lightgbm", true, false, 1, ""));
            TreeModels.lgbmModel(repo, "p", multi, TreeModels.config("p", "lightgbm", true, true, 3, ""));
        }
        try (FilHarness fil = FilHarness.open(repo.resolve("ids")))
        {
            assertArrayEquals(TreeModels.thirds(), fil.run(TreeModels.nine(), 2));
        }
        try (FilHarness fil = FilHarness.open(repo.resolve("p")))
        {
            final float[] p = fil.run(TreeModels.nine(), 2);
            for (int row = 0; row < 9; row++)
            {
                assertEquals(1, p[3 * row] + p[3 * row + 1] + p[3 * row + 2], EPS);
                assertEquals(p[3 * row + (int)TreeModels.thirds()[row]], max(p, row), 0, "row " + row);
            }
        }
    }

    private static float max(final float[] p, final int row)
    {
        return Math.max(p[3 * row], Math.max(p[3 * row + 1], p[3 * row + 2]));
    }
}
