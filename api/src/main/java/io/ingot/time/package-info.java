/**
 * The one clock Ingot's core, its timekeeper and its shared-memory server read ({@link io.ingot.time.NanoClock}),
 * injected into each. Depends on nothing; thread-safe.
 */
package io.ingot.time;
