/**
 * Triton's trace extension: trace settings, global and per model, with Triton's names, defaults, update rules and
 * messages ({@link io.ingot.server.trace.TraceManager}); the frontend's 1-in-{@code trace_rate} sampling; and
 * Triton's JSON trace file, written off the request path by one thread ({@link io.ingot.server.trace.TraceWriter}).
 */
package io.ingot.server.trace;
