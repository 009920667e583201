package io.ingot.fil;

/**
 * The serialization formats of Triton's FIL parameter {@code model_type} ({@code src/serialization.h}), each with the
 * file name Triton looks for when the version path is a directory ({@code RapidsModel::model_file} in
 * {@code src/model.h}).
 */
public enum ModelType
{
    /** XGBoost's legacy binary format. */
    XGBOOST("xgboost", "xgboost.model"),
    /** XGBoost JSON. */
    XGBOOST_JSON("xgboost_json", "xgboost.json"),
    /** XGBoost Universal Binary JSON. */
    XGBOOST_UBJ("xgboost_ubj", "xgboost.ubj"),
    /** LightGBM's text format. */
    LIGHTGBM("lightgbm", "model.txt"),
    /** A Treelite checkpoint. */
    TREELITE_CHECKPOINT("treelite_checkpoint", "checkpoint.tl");

    private final String parameterValue;
    private final String defaultFileName;

    ModelType(final String parameterValue, final String defaultFileName)
    {
        this.parameterValue = parameterValue;
        this.defaultFileName = defaultFileName;
    }

    /** @return the {@code model_type} value that names this format */
    public String parameterValue()
    {
        return parameterValue;
    }

    /** @return the model file Triton's FIL backend reads inside a version directory */
    public String defaultFileName()
    {
        return defaultFileName;
    }

    /** @return true for the XGBoost formats */
    public boolean isXgboost()
    {
        return this == XGBOOST || this == XGBOOST_JSON || this == XGBOOST_UBJ;
    }

    /**
     * @param value a {@code model_type} parameter value
     * @return the format
     * @throws IllegalArgumentException with Triton's message ("X not recognized as a valid serialization format.")
     */
    public static ModelType parse(final String value)
    {
        for (final ModelType type : values())
        {
            if (type.parameterValue.equals(value))
            {
                return type;
            }
        }
        throw new IllegalArgumentException(value + " not recognized as a valid serialization format.");
    }
}
