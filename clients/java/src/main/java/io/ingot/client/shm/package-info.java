/**
 * Triton's system shared-memory extension from the client's side: POSIX shared-memory objects created, mapped and
 * destroyed ({@link io.ingot.client.shm.SystemSharedMemoryRegion}), to be registered with either client.
 */
package io.ingot.client.shm;
