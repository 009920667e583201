/**
 * The FIL example of {@code examples/models}: an XGBoost classifier trained at build time through XGBoost's C API on
 * seeded data ({@link io.ingot.fil.examples.ExampleModelGenerator}), so the repository needs no download and no
 * Python.
 */
package io.ingot.fil.examples;
