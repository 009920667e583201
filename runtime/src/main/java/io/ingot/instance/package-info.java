/**
 * Model instances: each instance has its own thread, engine and one set of pinned staging buffers (the engine SPI is
 * synchronous, so the next batch is assembled only after the engine returned). Its duty cycle
 * ({@link io.ingot.instance.InstanceAgent}) takes the model's batching role when idle, asks the model's policy for a
 * batch, hands the role on and executes the batch itself ({@link io.ingot.instance.ModelInstance}): it assembles each
 * request's input bytes once into the batch's rows, runs the engine, gives each response its outputs (its rows of
 * the response memory the engine wrote for the whole batch, {@link io.ingot.instance.SharedOutput}, or each byte copied
 * once into memory from the request's own allocator), records the batch in its own statistics cell, and delivers
 * every response from its own thread.
 */
package io.ingot.instance;
