/**
 * Model warmup (Triton's {@code model_warmup}): the configuration's samples turned into requests once per model
 * version ({@link io.ingot.warmup.WarmupPlan}) and run on every instance before the version serves
 * ({@link io.ingot.warmup.WarmupRunner}); a sample that fails fails the load with Triton's message.
 */
package io.ingot.warmup;
