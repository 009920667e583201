package io.ingot.fil;

import io.ingot.fil.lightgbm.LgbmBooster;
import io.ingot.fil.xgboost.XgbBooster;
import io.ingot.testing.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * In a server process whose XGBoost library cannot be loaded (pointed at a file that does not exist), the XGBoost
 * model fails to load with a message naming the model, the library, its jar and the reason, and the LightGBM model
 * beside it serves.
 */
class MissingLibraryTest
{
    @TempDir
    Path repo;

    @Test
    void aModelWhoseLibraryCannotBeLoadedFailsAloneWithTheReason() throws Exception
    {
        try (XgbBooster xgb = TreeModels.xgbRegressor(); LgbmBooster lgbm = TreeModels.lgbmRegressor())
        {
            TreeModels.xgbModel(repo, "xgb", xgb, "xgboost.json", TreeModels.config("xgb", "xgboost_json", false,
                false, 1, ""));
            TreeModels.lgbmModel(repo, "lgbm", lgbm, TreeModels.config("lgbm", "lightgbm", false, false, 1, ""));
        }
        final Path missing = repo.resolve("nowhere").resolve("libxgboost4j.so");
        final List<String> flags = new ArrayList<>();
        flags.add("-Dingot.fil.xgboost.library=" + missing);
        try (ChildProcess child = ChildProcess.start(ChildProcess.javaCommand(ServeAndReport.class, flags,
            repo.toString())))
        {
            assertEquals("lgbm READY 5.0", child.awaitLine("lgbm ", 60));
            final String line = child.awaitLine("xgb ", 10);
            assertTrue(line.startsWith("xgb UNAVAILABLE Internal: model 'xgb' version 1: XGBoost 3.4.0 "
                + "(libxgboost4j.so) from ml.dmlc:xgboost4j_2.12:3.4.0 cannot be loaded: -Dingot.fil.xgboost.library "
                + "names " + missing
                + ", which is not a file"), line);
            assertEquals(0, child.awaitExit(30), child.output());
        }
    }
}
