/**
 * Bindings to the C library that Ingot calls directly through FFM: {@code futex(2)} for cross-process wake-ups.
 * Like every native binding of the project, they live in this module and nowhere else.
 */
package io.ingot.libc;
