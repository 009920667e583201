/**
 * XGBoost's C API ({@code xgboost/c_api.h} of XGBoost 3.4.0) over FFM: the raw binding ({@link
 * io.ingot.fil.xgboost.Xgboost}, C names and exact C types), a booster that turns return codes into exceptions
 * ({@link io.ingot.fil.xgboost.XgbBooster}), the allocation-free in-place prediction call
 * ({@link io.ingot.fil.xgboost.DensePrediction}) and training for tests and the example model
 * ({@link io.ingot.fil.xgboost.XgbTraining}). The library is {@code libxgboost4j.so} from
 * {@code ml.dmlc:xgboost4j_2.12:3.4.0}, which exports the whole C API next to its JNI functions; the JNI part is never
 * touched.
 */
package io.ingot.fil.xgboost;
