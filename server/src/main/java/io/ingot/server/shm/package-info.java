/** Triton's system shared-memory extension: POSIX shared-memory regions registered by clients and mapped with FFM. */
package io.ingot.server.shm;
