package io.ingot.fil;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.ingot.fil.xgboost.DensePrediction;
import io.ingot.fil.xgboost.XgbBooster;
import io.ingot.fil.xgboost.Xgboost;
import io.ingot.fil.xgboost.XgboostException;
import io.ingot.tensor.DataType;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * An XGBoost model (JSON or UBJSON) served through XGBoost's C API. Tree boosters ({@code gbtree}, {@code dart}) are
 * shared by every instance, because XGBoost documents prediction on them as thread-safe ({@code doc/prediction.rst},
 * "Thread Safety"); any other booster gets one per instance, loaded from the same bytes. Each instance predicts in
 * place ({@code XGBoosterPredictFromDense}) over the batch's memory.
 *
 * <p>A {@code multi:softmax} model predicts class ids, not probabilities; it is run for its margins instead, so that
 * {@code predict_proba} can give probabilities (softmax) and class ids come out as the arg max, as Triton's FIL
 * backend (through Treelite) gives them.
 */
final class XgboostForest implements Forest
{
    /** The element types XGBoost's array interface reads on the CPU ({@code src/data/array_interface.h}). */
    private static final Map<DataType, String> TYPESTR = Map.of(DataType.FP32, "<f4", DataType.FP64, "<f8",
        DataType.INT8, "|i1", DataType.INT16, "<i2", DataType.INT32, "<i4", DataType.INT64, "<i8",
        DataType.UINT8, "|u1", DataType.UINT16, "<u2", DataType.UINT32, "<u4", DataType.UINT64, "<u8");

    private final String modelName;
    private final byte[] model;
    private final XgbBooster shared;
    private final XgbBooster first;
    private final int cpuThreads;
    private final int predictType;
    private final String objective;
    private final String booster;
    private final long numFeatures;
    private final int scoresPerRow;
    private final int rounds;
    private boolean firstClaimed;

    private XgboostForest(final String modelName, final byte[] model, final XgbBooster booster, final int cpuThreads,
        final String objective, final String boosterName)
    {
        this.modelName = modelName;
        this.model = model;
        this.cpuThreads = cpuThreads;
        this.objective = objective;
        this.booster = boosterName;
        final boolean treeBooster = boosterName.equals("gbtree") || boosterName.equals("dart");
        this.shared = treeBooster ? booster : null;
        this.first = treeBooster ? null : booster;
        this.predictType = objective.equals("multi:softmax") ? Xgboost.PREDICT_MARGIN : Xgboost.PREDICT_NORMAL;
        this.numFeatures = booster.numFeatures();
        this.rounds = booster.boostedRounds();
        this.scoresPerRow = probe(booster, predictType, numFeatures);
    }

    /**
     * @param modelName  the model, for messages
     * @param file       the model file, for messages
     * @param model      the file's bytes
     * @param type       the configured {@code model_type}
     * @param cpuThreads {@code cpu_nthread}
     * @return the loaded model
     * @throws FilModelException when the file is not an XGBoost model of the configured kind or XGBoost cannot read
     *                           it
     */
    static XgboostForest open(final String modelName, final Path file, final byte[] model, final ModelType type,
        final int cpuThreads) throws FilModelException
    {
        final String format = format(model);
        final String expected = switch (type)
        {
            case XGBOOST_JSON -> "json";
            case XGBOOST_UBJ -> "ubj";
            default -> null;
        };
        if (format.equals("legacy"))
        {
            throw new FilModelException(modelName + ": '" + file + "' is in XGBoost's legacy binary format, which"
                + " XGBoost 3.4 no longer reads; load it with an older XGBoost and save it as xgboost.json"
                + " (model_type \"xgboost_json\") or xgboost.ubj (model_type \"xgboost_ubj\")");
        }
        if (format.equals("unknown"))
        {
            throw new FilModelException(modelName + ": '" + file + "' is not an XGBoost model (expected XGBoost"
                + " JSON or UBJSON for model_type \"" + type.parameterValue() + "\")");
        }
        if (expected != null && !expected.equals(format))
        {
            throw new FilModelException(modelName + ": model_type is \"" + type.parameterValue() + "\" but '" + file
                + "' holds XGBoost " + (format.equals("json") ? "JSON: set model_type to \"xgboost_json\""
                    : "UBJSON: set model_type to \"xgboost_ubj\""));
        }
        XgbBooster booster = null;
        try
        {
            booster = XgbBooster.load(model);
            if (cpuThreads > 0)
            {
                booster.setParam("nthread", Integer.toString(cpuThreads));
            }
            final JsonObject learner = JsonParser.parseString(booster.jsonConfig()).getAsJsonObject()
                .getAsJsonObject("learner");
            final JsonObject modelParam = learner.getAsJsonObject("learner_model_param");
            if (modelParam != null && modelParam.has("num_target")
                && Integer.parseInt(modelParam.get("num_target").getAsString()) > 1)
            {
                throw new FilModelException(modelName + ": '" + file + "' is a multi-target model ("
                    + modelParam.get("num_target").getAsString() + " targets), which Triton's FIL backend does not"
                    + " serve (\"Multi-target model not supported\")");
            }
            return new XgboostForest(modelName, model, booster,
                cpuThreads, learner.getAsJsonObject("objective").get("name").getAsString(),
                learner.getAsJsonObject("gradient_booster").get("name").getAsString());
        }
        catch (final XgboostException ex)
        {
            closeQuietly(booster);
            throw new FilModelException(modelName + ": XGBoost cannot read '" + file + "': " + ex.getMessage(), ex);
        }
        catch (final FilModelException | RuntimeException ex)
        {
            closeQuietly(booster);
            throw ex;
        }
    }

    /** @return "json", "ubj", "legacy" or "unknown", from the first bytes as XGBoost itself tells them apart. */
    static String format(final byte[] model)
    {
        if (model.length >= 4 && model[0] == 'b' && model[1] == 'i' && model[2] == 'n' && model[3] == 'f')
        {
            return "legacy";
        }
        int at = 0;
        while (at < model.length && Character.isWhitespace(model[at]))
        {
            at++;
        }
        if (at >= model.length || model[at] != '{')
        {
            return "unknown";
        }
        at++;
        while (at < model.length && Character.isWhitespace(model[at]))
        {
            at++;
        }
        if (at < model.length && (model[at] == '"' || model[at] == '}'))
        {
            return "json";
        }
        // UBJSON objects start with '{' and a type or length marker ('L', 'i', 'U', '#', '$', ...).
        return at < model.length && (Character.isLetter(model[at]) || model[at] == '#' || model[at] == '$')
            ? "ubj" : "unknown";
    }

    /** Predicts one row of zeros to learn the result's width. */
    private static int probe(final XgbBooster booster, final int predictType, final long features)
    {
        try (Arena arena = Arena.ofConfined();
            DensePrediction prediction = new DensePrediction(booster, predictType, "<f4"))
        {
            final MemorySegment row = arena.allocate(ValueLayout.JAVA_FLOAT, Math.max(1, features));
            return prediction.predict(row, 1, features);
        }
    }

    @Override
    public String library()
    {
        return "XGBoost 3.4.0";
    }

    @Override
    public String describe()
    {
        return "XGBoost 3.4.0 " + objective + " " + booster + ", " + rounds + " rounds, " + numFeatures
            + " features, " + scoresPerRow + " score" + (scoresPerRow == 1 ? "" : "s") + " per row"
            + (shared != null ? ", one booster shared by all instances" : ", one booster per instance");
    }

    @Override
    public long numFeatures()
    {
        return numFeatures;
    }

    @Override
    public int scoresPerRow()
    {
        return scoresPerRow;
    }

    @Override
    public boolean scoresAreMargins()
    {
        return predictType == Xgboost.PREDICT_MARGIN;
    }

    @Override
    public Set<DataType> inputTypes()
    {
        return TYPESTR.keySet();
    }

    @Override
    public synchronized ForestPredictor predictor(final DataType inputType, final int maxRows)
        throws FilModelException
    {
        final XgbBooster own;
        if (shared != null)
        {
            own = null;
        }
        else if (!firstClaimed)
        {
            firstClaimed = true;
            own = first;
        }
        else
        {
            try
            {
                own = XgbBooster.load(model);
                if (cpuThreads > 0)
                {
                    own.setParam("nthread", Integer.toString(cpuThreads));
                }
            }
            catch (final XgboostException ex)
            {
                throw new FilModelException(modelName + ": XGBoost cannot load another booster: " + ex.getMessage(),
                    ex);
            }
        }
        final XgbBooster used = own != null ? own : shared;
        return new Predictor(new DensePrediction(used, predictType, TYPESTR.get(inputType)), own);
    }

    @Override
    public synchronized void close()
    {
        closeQuietly(shared);
        if (!firstClaimed)
        {
            closeQuietly(first);
        }
    }

    private static void closeQuietly(final XgbBooster booster)
    {
        if (booster != null)
        {
            try
            {
                booster.close();
            }
            catch (final RuntimeException ex)
            {
                System.getLogger(XgboostForest.class.getName()).log(System.Logger.Level.WARNING,
                    "freeing an XGBoost booster failed: {0}", ex.getMessage());
            }
        }
    }

    /** One instance: its in-place prediction call, and the booster it owns when boosters are not shared. */
    private record Predictor(DensePrediction prediction, XgbBooster owned) implements ForestPredictor
    {
        @Override
        public void predict(final MemorySegment rows, final int count, final long features)
        {
            prediction.predict(rows, count, features);
        }

        @Override
        public double score(final long index)
        {
            return prediction.result(index);
        }

        @Override
        public void copyScores(final MemorySegment target, final long count)
        {
            prediction.copyResult(target, 0, count);
        }

        @Override
        public void close()
        {
            prediction.close();
            closeQuietly(owned);
        }
    }
}
