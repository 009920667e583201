/**
 * Bindings to the C library that Ingot calls directly through FFM: {@code futex(2)} for cross-process wake-ups
 * ({@link io.ingot.libc.Futex}) and the file calls that open, check and map clients' shared memory
 * ({@link io.ingot.libc.Posix}).
 * Like every native binding of the project, they live in this module and nowhere else.
 */
package io.ingot.libc;
