package io.ingot.fil;

import io.ingot.tensor.DataType;

import java.util.Set;

/**
 * A loaded tree model as the FIL backend sees it, whichever library runs it: what it takes (features, element
 * types), what it predicts per row, and a {@link ForestPredictor} for each instance. Thread-safe: instances are
 * created from the loading thread and used from their own.
 */
sealed interface Forest extends AutoCloseable permits XgboostForest, LightgbmForest
{
    /** @return the library and its version ("XGBoost 3.4.0") */
    String library();

    /** @return the library and model, for logs ("XGBoost 3.4.0 binary:logistic gbtree, 5 rounds") */
    String describe();

    /** @return the number of features per row the model was trained on */
    long numFeatures();

    /** @return raw scores the library predicts per row (classes of a multi-class model, else 1) */
    int scoresPerRow();

    /** @return true when the scores are margins that need a softmax to become class probabilities */
    boolean scoresAreMargins();

    /** @return the element types of {@code input__0} the library reads in place */
    Set<DataType> inputTypes();

    /**
     * @param inputType the element type of the rows it will be given (one of {@link #inputTypes()})
     * @param maxRows   the most rows one call will be given
     * @return a predictor for one instance
     * @throws FilModelException when the library refuses (the message names the model)
     */
    ForestPredictor predictor(DataType inputType, int maxRows) throws FilModelException;

    /** Frees the model; called after every predictor was closed. */
    @Override
    void close();
}
