/**
 * Model instances: each instance has its own thread, engine and double-buffered pinned staging; it takes batches
 * from its model's payload queue, assembles each request's input bytes once into the batch's rows, runs the engine,
 * and writes each output byte once into the memory of the response it belongs to.
 */
package io.ingot.instance;
