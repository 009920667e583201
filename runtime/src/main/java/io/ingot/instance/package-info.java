/**
 * Model instances: each instance has its own thread, engine and one set of pinned staging buffers (the engine SPI is
 * synchronous, so the next batch is assembled only after the engine returned); it takes batches from its model's
 * payload queue, assembles each request's input bytes once into the batch's rows, runs the engine, and writes each
 * output byte once into the memory of the response it belongs to.
 */
package io.ingot.instance;
