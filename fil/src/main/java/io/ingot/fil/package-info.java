/**
 * Triton's FIL backend for tree models ({@code backend: "fil"}), on the CPU: XGBoost models (JSON, UBJSON) and
 * LightGBM text models, served through the libraries' own C APIs ({@link io.ingot.fil.xgboost},
 * {@link io.ingot.fil.lightgbm}). {@link io.ingot.fil.FilBackendFactory} reads Triton's FIL parameters
 * ({@link io.ingot.fil.FilParameters}), finds the model file by {@code model_type} ({@link io.ingot.fil.ModelType}),
 * checks the configuration against the model ({@link io.ingot.fil.FilSignature}) and serves {@code input__0} →
 * {@code output__0} with Triton's post-processing ({@link io.ingot.fil.OutputTransform}); each instance predicts
 * straight from the batch's staging memory ({@link io.ingot.fil.FilEngine}).
 */
package io.ingot.fil;
