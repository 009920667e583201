/**
 * LightGBM's C API ({@code LightGBM/c_api.h} of LightGBM 3.2.1) over FFM: the raw binding
 * ({@link io.ingot.fil.lightgbm.Lightgbm}, C names, C types, the header's constants), a booster that turns return
 * codes into exceptions ({@link io.ingot.fil.lightgbm.LgbmBooster}), the allocation-free prediction call over a dense
 * matrix ({@link io.ingot.fil.lightgbm.MatPrediction}) and training for tests
 * ({@link io.ingot.fil.lightgbm.LgbmTraining}). The library is {@code lib_lightgbm.so} from
 * {@code com.microsoft.ml.lightgbm:lightgbmlib:3.2.110}; its SWIG wrapper beside it is never loaded.
 */
package io.ingot.fil.lightgbm;
